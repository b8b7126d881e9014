# SPDX-License-Identifier: LGPL-2.1-or-later
"""The built plugin through GObject introspection, for the scripts that
read the element (gen-reference.py, check-readme-properties.py)."""

import os
import tempfile

SKIP = 77  # meson's "skipped" exit status


def load_gst(plugin_path, die):
    """GObject and Gst with only the plugin in @plugin_path, in a registry of
    our own: an installed clboxblur (the .deb) or the user's registry cache
    cannot leak in. Without python3-gi, die(message, status): status 77
    (skipped) outside CI, 1 in it."""
    os.environ["GST_PLUGIN_SYSTEM_PATH_1_0"] = ""
    os.environ["GST_PLUGIN_PATH_1_0"] = plugin_path
    os.environ.pop("GST_PLUGIN_PATH", None)
    os.environ["GST_REGISTRY_1_0"] = os.path.join(
        tempfile.mkdtemp(prefix="clboxblur-gi-"), "registry.bin")
    os.environ.setdefault("GST_DEBUG", "*:1")
    try:
        import gi
        gi.require_version("Gst", "1.0")
        from gi.repository import GObject, Gst
    except (ImportError, ValueError) as e:
        die("python3-gi and gir1.2-gstreamer-1.0 are needed (%s); "
            "apt-get install python3-gi gir1.2-gstreamer-1.0" % e,
            1 if os.environ.get("CI") else SKIP)
    Gst.init(None)
    return GObject, Gst
