/* clboxblur: the element's properties and the settings they hold.
 * Copyright (C) 2026 The clboxblur authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * One table gives every property of clboxblur its pspec (name, range,
 * default, flags, documentation) and its field in GstCLBoxBlurSettings.
 * The element keeps one GstCLBoxBlurSettings under its object lock:
 * set_property and get_property go through the table, and the streaming
 * thread copies the whole struct under the lock, then works unlocked.
 */
#pragma once

#include <gst/gst.h>
#include "clblur/engine.h"
#include "clblur/glshare.h"

G_BEGIN_DECLS

typedef struct
{
  /* the effect */
  guint radius;
  gint radius_y;                /* -1: radius */
  ClbMethod method;
  ClbBorder border;
  guint passes;
  gdouble sigma;                /* > 0: three passes of a Gaussian's radii */
  gdouble sigma_spatial;
  gdouble sigma_range;
  gboolean preserve_alpha;
  gint chroma_radius;           /* -1: derived; else chroma-plane pixels */
  gint alpha_radius;            /* -1: as the colour channels */
  /* which pixels: the region, or the buffer's ROI metas */
  guint region_x, region_y, region_width, region_height;
  gboolean region_invert;
  gboolean roi_meta;
  GQuark roi_type;              /* 0: any */
  guint roi_padding;
  /* the device, and GL memory */
  ClbDeviceType device_type;
  gint platform_index;
  gint device_index;
  ClbGlSharing gl_sharing;
  /* alpha as the foreground mask */
  gboolean alpha_mask;
  guint mask_feather;           /* full-resolution pixels; 0: none */
} GstCLBoxBlurSettings;

/* Installs the properties on @klass and marks their enum types as plugin
 * API. */
void gst_cl_box_blur_install_properties (GObjectClass * klass);

/* Every setting at its property's default (after install_properties). */
void gst_cl_box_blur_settings_init (GstCLBoxBlurSettings * settings);

/* Stores @value of property @prop_id, or returns FALSE for an id that is
 * not one of the table's. */
gboolean gst_cl_box_blur_settings_set (GstCLBoxBlurSettings * settings,
    guint prop_id, const GValue * value);
/* Likewise, reads it into @value. */
gboolean gst_cl_box_blur_settings_get (const GstCLBoxBlurSettings * settings,
    guint prop_id, GValue * value);

/* The vertical radius in use: radius-y, or radius where it is -1. */
guint gst_cl_box_blur_settings_radius_y (const GstCLBoxBlurSettings *
    settings);

/* Whether @settings may change a frame of some format: a luma radius, a
 * sigma for the box methods, or a chroma or alpha radius of their own
 * that is not 0. FALSE lets frames pass through. */
gboolean gst_cl_box_blur_settings_filters (const GstCLBoxBlurSettings *
    settings);

G_END_DECLS
