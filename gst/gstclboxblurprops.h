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

/* The most types a roi-type list may name. */
#define GST_CL_BOX_BLUR_MAX_ROI_TYPES 16
/* The largest roi-hold, in frames. */
#define GST_CL_BOX_BLUR_MAX_ROI_HOLD 1000
/* The largest roi-strength: a radius of twice the region's smaller side
 * (a window five times as wide as the region) is past what any privacy
 * blur needs. */
#define GST_CL_BOX_BLUR_MAX_ROI_STRENGTH 2.0

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
  gdouble noise_level;          /* temporal: 0 = estimated */
  gdouble range_from_noise;     /* bilateral: 0 = sigma_range as set */
  guint temporal_reach;         /* temporal: frames */
  gboolean preserve_alpha;
  gint chroma_radius;           /* -1: derived; else chroma-plane pixels */
  gint alpha_radius;            /* -1: as the colour channels */
  guint block_size;             /* mosaic: even, full-resolution pixels */
  guint fill_color;             /* fill: 0xAARRGGBB */
  /* which pixels: the region, or the buffer's ROI metas */
  guint region_x, region_y, region_width, region_height;
  gboolean region_invert;
  gboolean roi_meta;
  GQuark roi_type;              /* the list as given, normalised; 0: any */
  GQuark roi_types[GST_CL_BOX_BLUR_MAX_ROI_TYPES];      /* its elements */
  guint n_roi_types;            /* 0: any type */
  guint roi_padding;
  guint roi_hold;               /* frames a region outlives its metas */
  gboolean roi_fail_closed;     /* no metas for the hold: whole frame */
  gdouble roi_strength;         /* k: a region's radius >= k x its side */
  ClbRegionShape region_shape;
  guint region_feather;         /* pixels */
  /* the device, and GL memory */
  ClbDeviceType device_type;
  gint platform_index;
  gint device_index;
  ClbGlSharing gl_sharing;
  /* alpha as the foreground mask */
  gboolean alpha_mask;
  guint mask_feather;           /* full-resolution pixels; 0: none */
  /* the properties the user set, a bit each (1 << the property's id) */
  guint64 set;
} GstCLBoxBlurSettings;

/* Installs the properties on @klass and marks their enum types as plugin
 * API. */
void gst_cl_box_blur_install_properties (GObjectClass * klass);

/* Every setting at its property's default (after install_properties). */
void gst_cl_box_blur_settings_init (GstCLBoxBlurSettings * settings);

/* Stores @value of property @prop_id, or returns FALSE for an id that is
 * not one of the table's. A value the property refuses (a malformed
 * roi-type list) leaves the setting as it was, with a g_warning saying
 * why. */
gboolean gst_cl_box_blur_settings_set (GstCLBoxBlurSettings * settings,
    guint prop_id, const GValue * value);
/* Likewise, reads it into @value. */
gboolean gst_cl_box_blur_settings_get (const GstCLBoxBlurSettings * settings,
    guint prop_id, GValue * value);

/* Parses @s, a roi-type list: types separated by commas, each without
 * the white space (g_ascii_isspace) around it, at most
 * GST_CL_BOX_BLUR_MAX_ROI_TYPES of them. NULL, empty or only white space:
 * no types (any type, *n_types = 0). Fills @types, @n_types and @canonical
 * (the types joined by ",", 0 for none) and returns TRUE; returns FALSE
 * with @reason set (static text) when an element is empty ("face,,plate",
 * ",", "face,") or there are too many. */
gboolean gst_cl_box_blur_parse_roi_types (const gchar * s, GQuark * types,
    guint * n_types, GQuark * canonical, const gchar ** reason);

/* The vertical radius in use: radius-y, or radius where it is -1. */
guint gst_cl_box_blur_settings_radius_y (const GstCLBoxBlurSettings *
    settings);

/* Whether @settings may change a frame of some format: mosaic or fill, a
 * luma radius, a sigma for the box methods, a chroma or alpha radius of
 * their own that is not 0, or a roi-strength with regions (not inverted).
 * FALSE lets frames pass through. */
gboolean gst_cl_box_blur_settings_filters (const GstCLBoxBlurSettings *
    settings);

G_END_DECLS
