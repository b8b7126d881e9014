/* clboxblur: the element's properties and the settings they hold.
 * Copyright (C) 2026 The clboxblur authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>

#include "gstclboxblur.h"
#include "gstclboxblurprops.h"

#define DEFAULT_RADIUS 4
#define DEFAULT_RADIUS_Y -1
/* identical pixels to sat, and the faster of the two (docs/index.md) */
#define DEFAULT_METHOD CLB_METHOD_SEPARABLE
#define DEFAULT_BORDER CLB_BORDER_SHRINK
#define DEFAULT_PASSES 1
#define DEFAULT_SIGMA 0.0
/* three passes of radius 1000 at most, half CLB_MAX_RADIUS */
#define MAX_GAUSSIAN_SIGMA 1000.0
#define DEFAULT_SIGMA_SPATIAL 3.0
#define DEFAULT_SIGMA_RANGE 30.0
#define DEFAULT_NOISE_LEVEL 0.0
#define MAX_NOISE_LEVEL 255.0
#define DEFAULT_RANGE_FROM_NOISE 0.0
#define MAX_RANGE_FROM_NOISE 10.0
#define DEFAULT_PRESERVE_ALPHA FALSE
#define DEFAULT_CHROMA_RADIUS -1
#define DEFAULT_ALPHA_RADIUS -1
#define MAX_SIGMA 1.0e6
#define DEFAULT_BLOCK_SIZE 16
#define DEFAULT_FILL_COLOR 0xff000000u
#define DEFAULT_REGION_X 0
#define DEFAULT_REGION_Y 0
#define DEFAULT_REGION_WIDTH 0
#define DEFAULT_REGION_HEIGHT 0
#define DEFAULT_REGION_INVERT FALSE
#define DEFAULT_ROI_META FALSE
#define DEFAULT_ROI_PADDING 0
#define DEFAULT_ROI_HOLD 0
#define DEFAULT_ROI_FAIL_CLOSED FALSE
#define DEFAULT_ROI_STRENGTH 0.0
#define DEFAULT_REGION_SHAPE CLB_REGION_RECTANGLE
#define DEFAULT_REGION_FEATHER 0
#define DEFAULT_DEVICE_TYPE CLB_DEVICE_TYPE_DEFAULT
#define DEFAULT_PLATFORM_INDEX -1
#define DEFAULT_DEVICE_INDEX 0
#define DEFAULT_GL_SHARING CLB_GL_SHARING_AUTO
#define DEFAULT_ALPHA_MASK FALSE
#define DEFAULT_MASK_FEATHER 0

enum
{
  PROP_0,
  PROP_RADIUS,
  PROP_RADIUS_Y,
  PROP_METHOD,
  PROP_BORDER,
  PROP_PASSES,
  PROP_SIGMA,
  PROP_SIGMA_SPATIAL,
  PROP_SIGMA_RANGE,
  PROP_NOISE_LEVEL,
  PROP_RANGE_FROM_NOISE,
  PROP_TEMPORAL_REACH,
  PROP_PRESERVE_ALPHA,
  PROP_CHROMA_RADIUS,
  PROP_ALPHA_RADIUS,
  PROP_BLOCK_SIZE,
  PROP_FILL_COLOR,
  PROP_REGION_X,
  PROP_REGION_Y,
  PROP_REGION_WIDTH,
  PROP_REGION_HEIGHT,
  PROP_REGION_INVERT,
  PROP_ROI_META,
  PROP_ROI_TYPE,
  PROP_ROI_PADDING,
  PROP_ROI_HOLD,
  PROP_ROI_FAIL_CLOSED,
  PROP_ROI_STRENGTH,
  PROP_REGION_SHAPE,
  PROP_REGION_FEATHER,
  PROP_DEVICE_TYPE,
  PROP_PLATFORM_INDEX,
  PROP_DEVICE_INDEX,
  PROP_GL_SHARING,
  PROP_ALPHA_MASK,
  PROP_MASK_FEATHER,
  N_PROPS
};

static GType
register_enum (gsize * type, const gchar * name, const GEnumValue * values)
{
  if (g_once_init_enter (type))
    g_once_init_leave (type, g_enum_register_static (name, values));
  return *type;
}

GType
gst_cl_box_blur_method_get_type (void)
{
  static gsize type = 0;
  static const GEnumValue values[] = {
    {CLB_METHOD_SAT, "Summed-area table box blur, O(1) in the radius", "sat"},
    {CLB_METHOD_SEPARABLE, "Horizontal then vertical box pass with "
          "running sums, O(1) in the radius", "separable"},
    {CLB_METHOD_BILATERAL, "Edge-preserving bilateral denoise, "
          "O(radius^2)", "bilateral"},
    {CLB_METHOD_MOSAIC, "Mosaic (pixelate): each block of block-size "
          "pixels replaced by its mean", "mosaic"},
    {CLB_METHOD_FILL, "Solid fill with fill-color (redaction)", "fill"},
    {CLB_METHOD_TEMPORAL, "Temporal denoise: blended with the frames "
          "before where they agree, then the bilateral at the noise left",
        "temporal"},
    {0, NULL, NULL},
  };

  return register_enum (&type, "GstCLBoxBlurMethod", values);
}

GType
gst_cl_box_blur_border_get_type (void)
{
  static gsize type = 0;
  static const GEnumValue values[] = {
    {CLB_BORDER_SHRINK, "Average only the window's pixels inside the frame",
        "shrink"},
    {CLB_BORDER_REPLICATE, "Repeat the edge pixel (aaa|abc)", "replicate"},
    {CLB_BORDER_REFLECT, "Mirror without repeating the edge pixel (cb|abc)",
        "reflect"},
    {0, NULL, NULL},
  };

  return register_enum (&type, "GstCLBoxBlurBorder", values);
}

GType
gst_cl_box_blur_region_shape_get_type (void)
{
  static gsize type = 0;
  static const GEnumValue values[] = {
    {CLB_REGION_RECTANGLE, "The rectangle", "rectangle"},
    {CLB_REGION_ELLIPSE, "The ellipse inscribed in the rectangle", "ellipse"},
    {0, NULL, NULL},
  };

  return register_enum (&type, "GstCLBoxBlurRegionShape", values);
}

GType
gst_cl_box_blur_device_type_get_type (void)
{
  static gsize type = 0;
  static const GEnumValue values[] = {
    {CLB_DEVICE_TYPE_DEFAULT, "Any OpenCL device", "default"},
    {CLB_DEVICE_TYPE_CPU, "A CPU device", "cpu"},
    {CLB_DEVICE_TYPE_GPU, "A GPU device", "gpu"},
    {CLB_DEVICE_TYPE_ACCELERATOR, "An accelerator device", "accelerator"},
    {0, NULL, NULL},
  };

  return register_enum (&type, "GstCLBoxBlurDeviceType", values);
}

GType
gst_cl_box_blur_gl_sharing_get_type (void)
{
  static gsize type = 0;
  static const GEnumValue values[] = {
    {CLB_GL_SHARING_AUTO, "Share textures where the device can, else copy",
        "auto"},
    {CLB_GL_SHARING_OFF, "Copy textures through host memory", "off"},
    {CLB_GL_SHARING_FORCE, "Share textures (cl_khr_gl_sharing) or fail",
        "force"},
    {0, NULL, NULL},
  };

  return register_enum (&type, "GstCLGLSharing", values);
}

/* The properties, one row each: the pspec's arguments and the field of
 * GstCLBoxBlurSettings that holds the value; setting and getting go by the
 * row's kind. */
typedef enum
{
  KIND_UINT,
  KIND_INT,
  KIND_DOUBLE,
  KIND_BOOLEAN,
  KIND_ENUM,                    /* stored as the enum (int-sized) */
  KIND_ROI_TYPES,               /* a roi-type list: the GQuark of its
                                 * normalised text (0 for none) and, after
                                 * it in GstCLBoxBlurSettings, its types */
} PropKind;

typedef struct
{
  const gchar *name, *nick, *blurb;
  PropKind kind;
  GType (*enum_type) (void);
  gdouble min, max, def;        /* def: also the enum's and boolean's */
  GParamFlags flags;
  gsize offset;
} PropRow;

G_STATIC_ASSERT (sizeof (ClbMethod) == sizeof (gint));
G_STATIC_ASSERT (sizeof (ClbBorder) == sizeof (gint));
G_STATIC_ASSERT (sizeof (ClbDeviceType) == sizeof (gint));
G_STATIC_ASSERT (sizeof (ClbGlSharing) == sizeof (gint));
G_STATIC_ASSERT (sizeof (ClbRegionShape) == sizeof (gint));

/* Effect parameters change while playing and can be controlled; the
 * device is chosen in READY. */
#define EFFECT (G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | \
    GST_PARAM_CONTROLLABLE | GST_PARAM_MUTABLE_PLAYING)
#define PLAYING (G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | \
    GST_PARAM_MUTABLE_PLAYING)
#define READY (G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | \
    GST_PARAM_MUTABLE_READY)
#define FIELD(f) G_STRUCT_OFFSET (GstCLBoxBlurSettings, f)

/* *INDENT-OFF* */
static const PropRow prop_rows[N_PROPS] = {
  /**
   * GstCLBoxBlur:radius:
   *
   * Horizontal half-width of the window: the mean is taken over
   * 2·radius+1 columns. 0 passes frames through untouched (when
   * #GstCLBoxBlur:radius-y is 0 or -1 too, and neither #GstCLBoxBlur:sigma,
   * #GstCLBoxBlur:chroma-radius nor #GstCLBoxBlur:alpha-radius asks for a
   * blur). The bound keeps every box sum of 8-bit samples exact in the
   * 32-bit summed-area table. Bilateral bounds its window further, in each
   * plane's pixels: at most 63, and at most ceil (3 ×
   * #GstCLBoxBlur:sigma-spatial) where that is not 0. Temporal takes 2
   * while radius is unset (at 4 it trails the bilateral on a pan).
   */
  [PROP_RADIUS] = {"radius", "Radius", "Horizontal half-width of the blur "
      "window in pixels (0 = pass through; bilateral uses at most 63 and "
      "3 x sigma-spatial; temporal 2 while unset)", KIND_UINT, NULL,
      0, CLB_MAX_RADIUS, DEFAULT_RADIUS, EFFECT, FIELD (radius)},
  /**
   * GstCLBoxBlur:radius-y:
   *
   * Vertical half-width of the window in pixels; -1 uses
   * #GstCLBoxBlur:radius.
   */
  [PROP_RADIUS_Y] = {"radius-y", "Vertical radius", "Vertical half-width of "
      "the blur window in pixels (-1 = same as radius)", KIND_INT, NULL,
      -1, CLB_MAX_RADIUS, DEFAULT_RADIUS_Y, EFFECT, FIELD (radius_y)},
  /**
   * GstCLBoxBlur:method:
   *
   * The filter: `sat` and `separable` are box blurs with identical output
   * and a cost independent of the radius (`separable`, the default, is the
   * faster); `bilateral` is the edge-preserving denoiser; `mosaic`
   * pixelates (#GstCLBoxBlur:block-size) and `fill` paints
   * #GstCLBoxBlur:fill-color, both for privacy inside regions or ROI
   * metas (or over the whole frame without them). Mosaic and fill ignore
   * #GstCLBoxBlur:radius, #GstCLBoxBlur:radius-y, #GstCLBoxBlur:passes,
   * #GstCLBoxBlur:sigma, the bilateral sigmas, #GstCLBoxBlur:border and
   * #GstCLBoxBlur:chroma-radius (chroma is always mosaicked or filled
   * with luma, so no colour detail is left); alpha is left untouched with
   * #GstCLBoxBlur:preserve-alpha or an #GstCLBoxBlur:alpha-radius of 0,
   * else mosaicked or filled like the other components.
   */
  [PROP_METHOD] = {"method", "Method", "Filter algorithm: box blur (sat, "
      "separable), bilateral denoise, mosaic (pixelate) or solid fill",
      KIND_ENUM,
      gst_cl_box_blur_method_get_type, 0, 0, DEFAULT_METHOD, EFFECT,
      FIELD (method)},
  /**
   * GstCLBoxBlur:border:
   *
   * What the window sees past the frame's edge: `shrink` averages only the
   * pixels inside (the source documents' behaviour), `replicate` repeats the
   * edge pixel, `reflect` mirrors without repeating it (OpenCV's default).
   */
  [PROP_BORDER] = {"border", "Border", "How the window is completed past the "
      "frame's edge", KIND_ENUM, gst_cl_box_blur_border_get_type, 0, 0,
      DEFAULT_BORDER, EFFECT, FIELD (border)},
  /**
   * GstCLBoxBlur:passes:
   *
   * How many times the box filter is applied (`sat` and `separable`);
   * three passes approximate a Gaussian blur. Ignored by `bilateral`.
   */
  [PROP_PASSES] = {"passes", "Passes", "Times the box filter is applied "
      "(3 approximates a Gaussian; box methods only)", KIND_UINT, NULL,
      1, CLB_MAX_PASSES, DEFAULT_PASSES, EFFECT, FIELD (passes)},
  /**
   * GstCLBoxBlur:sigma:
   *
   * A Gaussian look from the box methods: when above 0, `sat` and
   * `separable` run three box passes whose widths approximate a Gaussian
   * of this standard deviation in pixels (W. Wells; P. Kovesi, "Fast
   * almost-Gaussian filtering"), in place of #GstCLBoxBlur:radius,
   * #GstCLBoxBlur:radius-y and #GstCLBoxBlur:passes, horizontally and
   * vertically alike. With n = 3 passes, the ideal width is
   * w = sqrt (12 sigma² / n + 1); wl is the largest odd integer not above
   * it and wu = wl + 2; the first
   * m = round ((12 sigma² − n wl² − 4 n wl − 3 n) / (−4 wl − 4)) passes
   * have width wl, the others wu, and a pass's radius is (width − 1) / 2.
   * Chroma planes take each pass's radius scaled by their subsampling,
   * unless #GstCLBoxBlur:chroma-radius gives one of their own, which then
   * every pass uses (likewise #GstCLBoxBlur:alpha-radius). 0 (the default)
   * uses the radii. Ignored by `bilateral`, which has
   * #GstCLBoxBlur:sigma-spatial.
   */
  [PROP_SIGMA] = {"sigma", "Sigma", "Box methods: three passes "
      "approximating a Gaussian of this standard deviation in pixels, in "
      "place of radius, radius-y and passes (0 = off)", KIND_DOUBLE, NULL,
      0.0, MAX_GAUSSIAN_SIGMA, DEFAULT_SIGMA, EFFECT, FIELD (sigma)},
  /**
   * GstCLBoxBlur:sigma-spatial:
   *
   * Bilateral: standard deviation of the spatial Gaussian in pixels of the
   * plane filtered. 0 weighs the whole window alike. The window stops at
   * ceil (3 sigma) pixels each way, where the Gaussian has fallen below
   * 1.2 % of its peak, and at 63 (3 × 21, the largest sigma): a 1080p frame
   * then costs at most 127² taps a pixel. Temporal too, 1.5 while unset.
   */
  [PROP_SIGMA_SPATIAL] = {"sigma-spatial", "Spatial sigma", "Bilateral "
      "and temporal: spatial Gaussian standard deviation in pixels (0 = flat "
      "window; temporal 1.5 while unset); the window reaches at most 3 sigma",
      KIND_DOUBLE, NULL, 0.0,
      CLB_MAX_SIGMA_SPATIAL, DEFAULT_SIGMA_SPATIAL, EFFECT,
      FIELD (sigma_spatial)},
  /**
   * GstCLBoxBlur:sigma-range:
   *
   * Bilateral: standard deviation of the range Gaussian, in 8-bit intensity
   * units (scaled by the format's depth: ×1023/255 for 10-bit). The
   * distance is taken over the colour channels stored together (RGB, or
   * U and V of NV12), not per channel, alpha excluded. 0 averages only
   * identical colours.
   */
  [PROP_SIGMA_RANGE] = {"sigma-range", "Range sigma", "Bilateral: range "
      "Gaussian standard deviation in 8-bit intensity units (0 = only "
      "identical colours)", KIND_DOUBLE, NULL, 0.0, MAX_SIGMA,
      DEFAULT_SIGMA_RANGE, EFFECT, FIELD (sigma_range)},
  /**
   * GstCLBoxBlur:noise-level:
   *
   * Temporal: the standard deviation of the video's noise, in 8-bit
   * intensity units (scaled by the format's depth). 0 (the default)
   * estimates it from the frames themselves (the fine detail of 8 × 8
   * blocks, the quietest tenth of them, smoothed over frames); read back,
   * the property then gives the current estimate (0 before the first
   * frame), which is also logged.
   */
  [PROP_NOISE_LEVEL] = {"noise-level", "Noise level", "Temporal: noise "
      "standard deviation in 8-bit intensity units (0 = estimated; reads "
      "back the estimate)", KIND_DOUBLE, NULL, 0.0, MAX_NOISE_LEVEL,
      DEFAULT_NOISE_LEVEL, EFFECT, FIELD (noise_level)},
  /**
   * GstCLBoxBlur:range-from-noise:
   *
   * Bilateral: above 0, sigma-range is this many times the noise level
   * (noise-level, or its estimate where that is 0), frame by frame.
   */
  [PROP_RANGE_FROM_NOISE] = {"range-from-noise", "Range from noise",
      "Bilateral: sigma-range as this many times the noise level "
      "(noise-level, or the estimate where it is 0); 0 = sigma-range as "
      "set", KIND_DOUBLE, NULL, 0.0, MAX_RANGE_FROM_NOISE,
      DEFAULT_RANGE_FROM_NOISE, EFFECT, FIELD (range_from_noise)},
  /**
   * GstCLBoxBlur:temporal-reach:
   *
   * Temporal: how many frames the blend averages at most where the scene
   * stays still; each sample's history then decays by 1/reach a frame.
   * More reach takes more noise from still scenes and recovers more
   * slowly from noise the agreement test lets through. The default, 8,
   * suits a webcam at 30 frames a second.
   */
  [PROP_TEMPORAL_REACH] = {"temporal-reach", "Temporal reach", "Temporal: "
      "the most frames the blend averages", KIND_UINT, NULL, 1,
      CLB_MAX_TEMPORAL_REACH, CLB_DEFAULT_TEMPORAL_REACH, EFFECT,
      FIELD (temporal_reach)},
  /**
   * GstCLBoxBlur:preserve-alpha:
   *
   * Keep the alpha channel untouched instead of filtering it like the
   * others.
   */
  [PROP_PRESERVE_ALPHA] = {"preserve-alpha", "Preserve alpha", "Leave the "
      "alpha channel untouched", KIND_BOOLEAN, NULL, 0, 0,
      DEFAULT_PRESERVE_ALPHA, EFFECT, FIELD (preserve_alpha)},
  /**
   * GstCLBoxBlur:chroma-radius:
   *
   * The radius of the chroma (U and V) samples of YUV formats, in
   * pixels of the chroma planes, horizontally and vertically: -1 (the
   * default) takes #GstCLBoxBlur:radius and #GstCLBoxBlur:radius-y scaled
   * by the subsampling (I420: halved, rounded, at least 1); 0 leaves
   * chroma untouched, so that only luma (and alpha) is filtered; N
   * filters chroma with a window of 2·N+1 chroma samples (FFmpeg's
   * boxblur chroma_radius), whatever the luma radius, which may be 0.
   * RGB and grey formats have no chroma: it is ignored there.
   */
  [PROP_CHROMA_RADIUS] = {"chroma-radius", "Chroma radius", "Radius of "
      "the U and V samples of YUV formats in chroma-plane pixels (-1 = "
      "radius scaled by the subsampling, 0 = chroma untouched)", KIND_INT,
      NULL, -1, CLB_MAX_RADIUS, DEFAULT_CHROMA_RADIUS, EFFECT,
      FIELD (chroma_radius)},
  /**
   * GstCLBoxBlur:alpha-radius:
   *
   * The radius of the alpha channel (RGBA and the like, AYUV, A420), in
   * pixels, horizontally and vertically: -1 (the default) filters alpha
   * like the colour channels (#GstCLBoxBlur:radius, #GstCLBoxBlur:radius-y,
   * #GstCLBoxBlur:sigma); 0 leaves it untouched, as
   * #GstCLBoxBlur:preserve-alpha does; N filters it with a window of
   * 2·N+1. #GstCLBoxBlur:preserve-alpha, when true, wins: alpha is then
   * untouched whatever this says.
   */
  [PROP_ALPHA_RADIUS] = {"alpha-radius", "Alpha radius", "Radius of the "
      "alpha channel in pixels (-1 = as the colour channels, 0 = "
      "untouched; preserve-alpha wins)", KIND_INT, NULL, -1, CLB_MAX_RADIUS,
      DEFAULT_ALPHA_RADIUS, EFFECT, FIELD (alpha_radius)},
  /**
   * GstCLBoxBlur:block-size:
   *
   * `mosaic`: the side of a block in pixels of the full-resolution frame.
   * Each block becomes the rounded mean of its pixels, (sum + n/2) / n
   * per component, n the pixels of the block inside the frame (the
   * blocks at the right and bottom edges are cut off by it). Blocks start
   * at the frame's top-left corner, not the region's, so they do not
   * crawl as a region moves. A plane subsampled by 2 (4:2:0 and 4:2:2
   * chroma) takes blocks of half the size, so the size must be even: an
   * odd value is refused with a warning and the previous one kept.
   * 2 to 256 (a block of 16-bit samples then still sums exactly in 32
   * bits). Ignored by the other methods.
   */
  [PROP_BLOCK_SIZE] = {"block-size", "Block size", "mosaic: side of a "
      "block in pixels, even (odd values are refused)", KIND_UINT, NULL,
      CLB_MIN_BLOCK_SIZE, CLB_MAX_BLOCK_SIZE, DEFAULT_BLOCK_SIZE, PLAYING,
      FIELD (block_size)},
  /**
   * GstCLBoxBlur:fill-color:
   *
   * `fill`: the colour as 0xAARRGGBB (8 bits each, as textoverlay's and
   * compositor's colours), default opaque black. RGB formats take R, G, B
   * scaled to their depth (v × max / 255, rounded); YUV and grey formats
   * the colour converted in integers with the caps' matrix (BT.601 where
   * the caps give none) and range: with KR = round (65536 Kr), KB = round
   * (65536 Kb), KG = 65536 − KR − KB, E = KR·R + KG·G + KB·B,
   * DB = 65536·B − E, DR = 65536·R − E and m = 2^(depth − 8), limited
   * range gives Y = 16m + div (219m·E, 255·65536),
   * U = 128m + div (224m·DB, 510·(65536 − KB)),
   * V = 128m + div (224m·DR, 510·(65536 − KR)); full range (max =
   * 2^depth − 1) Y = div (max·E, 255·65536), U = 2^(depth−1) +
   * div (max·DB, 510·(65536 − KB)), V likewise; div rounds to nearest,
   * halves away from zero, and each value is clamped to 0..max. Formats
   * with alpha take A (scaled like R); the others ignore it. Ignored by the
   * other methods.
   */
  [PROP_FILL_COLOR] = {"fill-color", "Fill color", "fill: the colour, "
      "0xAARRGGBB (alpha used only by formats with alpha)", KIND_UINT, NULL,
      0, G_MAXUINT32, DEFAULT_FILL_COLOR, PLAYING, FIELD (fill_color)},
  /**
   * GstCLBoxBlur:region-x:
   *
   * Left edge of the region to filter, in pixels. The region (default: the
   * whole frame) limits the filter to a rectangle; the pixels outside are
   * copied unchanged, and the pixels inside still see their real
   * neighbours across its edge, so there is no seam.
   */
  [PROP_REGION_X] = {"region-x", "Region X", "Left edge of the region to "
      "filter, in pixels", KIND_UINT, NULL, 0, G_MAXINT, DEFAULT_REGION_X,
      EFFECT, FIELD (region_x)},
  /**
   * GstCLBoxBlur:region-y:
   *
   * Top edge of the region to filter, in pixels.
   */
  [PROP_REGION_Y] = {"region-y", "Region Y", "Top edge of the region to "
      "filter, in pixels", KIND_UINT, NULL, 0, G_MAXINT, DEFAULT_REGION_Y,
      EFFECT, FIELD (region_y)},
  /**
   * GstCLBoxBlur:region-width:
   *
   * Width of the region in pixels; 0 reaches the frame's right edge.
   */
  [PROP_REGION_WIDTH] = {"region-width", "Region width", "Width of the "
      "region to filter in pixels (0 = to the right edge)", KIND_UINT, NULL,
      0, G_MAXINT, DEFAULT_REGION_WIDTH, EFFECT, FIELD (region_width)},
  /**
   * GstCLBoxBlur:region-height:
   *
   * Height of the region in pixels; 0 reaches the frame's bottom edge.
   */
  [PROP_REGION_HEIGHT] = {"region-height", "Region height", "Height of the "
      "region to filter in pixels (0 = to the bottom edge)", KIND_UINT, NULL,
      0, G_MAXINT, DEFAULT_REGION_HEIGHT, EFFECT, FIELD (region_height)},
  /**
   * GstCLBoxBlur:region-invert:
   *
   * Filter everything except the region (or the ROI metas): the
   * background blur of video calls.
   */
  [PROP_REGION_INVERT] = {"region-invert", "Invert region", "Filter "
      "everything except the region(s)", KIND_BOOLEAN, NULL, 0, 0,
      DEFAULT_REGION_INVERT, EFFECT, FIELD (region_invert)},
  /**
   * GstCLBoxBlur:roi-meta:
   *
   * Filter the rectangles of the buffer's GstVideoRegionOfInterestMeta
   * instead of the region-* rectangle: a buffer without such metas passes
   * unfiltered (everything is filtered with #GstCLBoxBlur:region-invert),
   * unless #GstCLBoxBlur:roi-hold keeps the regions of the frames before
   * or #GstCLBoxBlur:roi-fail-closed filters it whole. The frame is
   * filtered once however many regions there are.
   */
  [PROP_ROI_META] = {"roi-meta", "ROI meta", "Filter the buffer's "
      "region-of-interest metas instead of the region-* rectangle",
      KIND_BOOLEAN, NULL, 0, 0, DEFAULT_ROI_META, PLAYING, FIELD (roi_meta)},
  /**
   * GstCLBoxBlur:roi-type:
   *
   * With #GstCLBoxBlur:roi-meta, only the metas of these types: one type
   * ("face") or several separated by commas ("face,license-plate"). White
   * space around each type is ignored (" face , plate" is "face,plate");
   * inside a type it is kept. NULL, empty or only white space takes every
   * type. A list with an empty element ("face,,plate", ",", "face,") or
   * more than 16 types is refused with a warning, and the property keeps
   * its value. Reading it gives the list normalised: the types joined by
   * commas, without the white space.
   */
  [PROP_ROI_TYPE] = {"roi-type", "ROI type", "Only region-of-interest metas "
      "of these types, separated by commas, e.g. face,license-plate "
      "(empty = any)", KIND_ROI_TYPES, NULL, 0, 0, 0,
      PLAYING, FIELD (roi_type)},
  /**
   * GstCLBoxBlur:roi-padding:
   *
   * Pixels added on every side of each region-of-interest meta.
   */
  [PROP_ROI_PADDING] = {"roi-padding", "ROI padding", "Pixels added on every "
      "side of each region-of-interest meta", KIND_UINT, NULL, 0,
      G_MAXINT / 4, DEFAULT_ROI_PADDING, EFFECT, FIELD (roi_padding)},
  /**
   * GstCLBoxBlur:roi-hold:
   *
   * With #GstCLBoxBlur:roi-meta, how many frames (buffers) a region
   * outlives its metas: the regions of a frame are those of the metas of
   * that frame and of the N frames before it (fewer just after a reset),
   * so a detector that misses a face for up to N frames leaves no
   * unfiltered flash. Without #GstCLBoxBlur:region-invert the regions
   * filtered are the union of those frames' regions; with it (the regions
   * are what stays sharp) a pixel stays sharp only where it is inside a
   * region in every one of those frames (the intersection), so holding
   * never filters less. The types (#GstCLBoxBlur:roi-type) and padding
   * (#GstCLBoxBlur:roi-padding) in use apply to the held metas too. The
   * frames remembered are forgotten on a flush, a new segment (a seek), a
   * new stream (stream-start) and new caps. Interlaced
   * frames: both fields take the frame's regions. 0 (the default): each
   * frame's own metas only.
   */
  [PROP_ROI_HOLD] = {"roi-hold", "ROI hold", "Frames a region-of-interest "
      "stays filtered after its metas stop (union of the last N+1 frames' "
      "regions; intersection with region-invert)", KIND_UINT, NULL, 0,
      GST_CL_BOX_BLUR_MAX_ROI_HOLD, DEFAULT_ROI_HOLD, PLAYING,
      FIELD (roi_hold)},
  /**
   * GstCLBoxBlur:roi-fail-closed:
   *
   * With #GstCLBoxBlur:roi-meta, filter the whole frame while no meta of
   * the selected types (#GstCLBoxBlur:roi-type) has come for more than
   * #GstCLBoxBlur:roi-hold frames: a frame is filtered whole when neither
   * it nor any of the #GstCLBoxBlur:roi-hold frames before it carries
   * such a meta. Frames before the first since a reset count as frames
   * without metas, so the stream starts filtered whole until the first
   * meta comes; the first frame that carries one goes back to the
   * regions. With #GstCLBoxBlur:region-invert the frame is filtered whole
   * then too.
   */
  [PROP_ROI_FAIL_CLOSED] = {"roi-fail-closed", "ROI fail closed", "Filter "
      "the whole frame while no region-of-interest meta of the selected "
      "types has come for more than roi-hold frames", KIND_BOOLEAN, NULL, 0,
      0, DEFAULT_ROI_FAIL_CLOSED, PLAYING, FIELD (roi_fail_closed)},
  /**
   * GstCLBoxBlur:roi-strength:
   *
   * A region's strength follows its size, so that a face is as
   * unrecognisable far away as close up: each region (each ROI meta's
   * rectangle with #GstCLBoxBlur:roi-meta, else the region-* rectangle)
   * is filtered with every radius (#GstCLBoxBlur:radius,
   * #GstCLBoxBlur:radius-y, each pass of #GstCLBoxBlur:sigma) raised to
   * at least k x its smaller side: s = min (width, height) of the
   * rectangle as filtered (after #GstCLBoxBlur:roi-padding, clipped to
   * the frame; a held region its own), r = ceil (k s), rounded up to the
   * next of 1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, ... (2^n and 3 x
   * 2^(n-1)), at most 2047; a pixel in several regions takes the largest.
   * The rounding bounds the number of distinct radii in a frame (22), and
   * each is filtered once in boxes around its regions, so the cost
   * follows the regions' area, not their count. Chroma planes scale the
   * radius by their subsampling as usual; a #GstCLBoxBlur:chroma-radius
   * or #GstCLBoxBlur:alpha-radius of their own is kept; `bilateral`
   * bounds its window as usual (3 sigma-spatial, 63). A radius of 0 with a
   * strength filters the regions at their strength alone (a frame filtered
   * whole, by #GstCLBoxBlur:roi-fail-closed, takes the radius). With
   * #GstCLBoxBlur:region-invert (the regions are what stays sharp) it has
   * no meaning: it is ignored, with a warning once. 0 (the default): off.
   */
  [PROP_ROI_STRENGTH] = {"roi-strength", "ROI strength", "A region's radius "
      "is at least this times its smaller side (rounded up to 1, 2, 3, 4, "
      "6, 8, 12, ...; mosaic: the block, made even; 0 = off; ignored with "
      "region-invert and fill)", KIND_DOUBLE,
      NULL, 0.0, GST_CL_BOX_BLUR_MAX_ROI_STRENGTH, DEFAULT_ROI_STRENGTH,
      EFFECT, FIELD (roi_strength)},
  /**
   * GstCLBoxBlur:region-shape:
   *
   * The shape of the region-* rectangle and of every region-of-interest
   * meta: the rectangle itself, or the ellipse inscribed in it (faces).
   * A pixel is inside the ellipse when its centre is; a subsampled chroma
   * sample when one of the pixels it covers is (exact integer tests, in
   * kernels/region.cl).
   */
  [PROP_REGION_SHAPE] = {"region-shape", "Region shape", "Shape of each "
      "region: its rectangle or the ellipse inscribed in it", KIND_ENUM,
      gst_cl_box_blur_region_shape_get_type, 0, 0, DEFAULT_REGION_SHAPE,
      EFFECT, FIELD (region_shape)},
  /**
   * GstCLBoxBlur:region-feather:
   *
   * Soft edges: pixels past each region's edge over which it blends into
   * the outside, so the region itself stays wholly filtered. A pixel t
   * pixels out (t = 1..feather; the region grown by t, with round
   * corners, first holds it) is (feather + 1 - t) / (feather + 1)
   * filtered, rounded to nearest. With #GstCLBoxBlur:region-invert the
   * roles swap: the regions stay wholly sharp and the blur fades in over
   * the same pixels outside them. 0 gives hard edges.
   */
  [PROP_REGION_FEATHER] = {"region-feather", "Region feather", "Pixels past "
      "each region's edge over which it blends into the outside (0 = hard "
      "edge)", KIND_UINT, NULL, 0, CLB_MAX_REGION_FEATHER,
      DEFAULT_REGION_FEATHER, EFFECT, FIELD (region_feather)},
  /**
   * GstCLBoxBlur:device-type:
   *
   * Which kind of OpenCL device to run on.
   */
  [PROP_DEVICE_TYPE] = {"device-type", "Device type", "Kind of OpenCL device "
      "to use", KIND_ENUM, gst_cl_box_blur_device_type_get_type, 0, 0,
      DEFAULT_DEVICE_TYPE, READY, FIELD (device_type)},
  /**
   * GstCLBoxBlur:platform-index:
   *
   * Index of the OpenCL platform (driver), as clinfo lists them; -1 takes
   * the first platform that has a matching device.
   */
  [PROP_PLATFORM_INDEX] = {"platform-index", "Platform index", "Index of the "
      "OpenCL platform (-1 = first with a matching device)", KIND_INT, NULL,
      -1, G_MAXINT, DEFAULT_PLATFORM_INDEX, READY, FIELD (platform_index)},
  /**
   * GstCLBoxBlur:device-index:
   *
   * Index of the device among the platform's devices of
   * #GstCLBoxBlur:device-type.
   */
  [PROP_DEVICE_INDEX] = {"device-index", "Device index", "Index among the "
      "platform's devices of the chosen type", KIND_INT, NULL, 0, G_MAXINT,
      DEFAULT_DEVICE_INDEX, READY, FIELD (device_index)},
  /**
   * GstCLBoxBlur:gl-sharing:
   *
   * How GL textures (video/x-raw(memory:GLMemory)) reach OpenCL: `auto`
   * shares them (cl_khr_gl_sharing, no pixel leaves the device) where the
   * device and the GL context allow it and copies them through host memory
   * otherwise; `off` always copies; `force` shares or fails with an error
   * saying why. The debug log (clbasefilter:4) says which path runs.
   */
  [PROP_GL_SHARING] = {"gl-sharing", "GL sharing", "How GL textures reach "
      "OpenCL: shared (cl_khr_gl_sharing) or copied", KIND_ENUM,
      gst_cl_box_blur_gl_sharing_get_type, 0, 0, DEFAULT_GL_SHARING, READY,
      FIELD (gl_sharing)},
  /**
   * GstCLBoxBlur:alpha-mask:
   *
   * Alpha as the foreground mask, for formats with alpha (RGBA, BGRA,
   * ARGB, ABGR, AYUV, A420, RGBA64_LE): the largest alpha keeps a pixel
   * sharp, 0 makes it background, values between blend. The background is
   * the box blur normalised by w = amax − alpha (amax 255, or 65535 for
   * RGBA64_LE): B = (Σ I·w + Σ w / 2) / Σ w over the window, B = I where
   * Σ w is 0, so no foreground colour bleeds into it (no halo); the output
   * is (a·I + (amax − a)·B + amax / 2) / amax, a the alpha or the
   * feathered alpha (#GstCLBoxBlur:mask-feather). Alpha leaves as it came
   * (#GstCLBoxBlur:alpha-radius and #GstCLBoxBlur:preserve-alpha do not
   * apply). A420's chroma takes the rounded mean of the alphas of its 2×2
   * pixels inside the frame. With the mask, the box runs once:
   * #GstCLBoxBlur:passes and #GstCLBoxBlur:sigma are ignored, with a
   * warning once. With `bilateral` the mask only blends, B being the
   * bilateral's output. Regions and ROI metas still choose the pixels
   * filtered. On a format without alpha: a warning once, and the plain
   * blur. Where no alpha is below full for 30 frames in a row (RGBA from
   * videoconvert of an opaque source), nothing is blurred: a warning
   * ("alpha-mask: nothing is background"), once, again only after a
   * frame with background (found by the kernels, read without a wait).
   */
  [PROP_ALPHA_MASK] = {"alpha-mask", "Alpha mask", "Alpha as the "
      "foreground mask: blur the background (alpha 0) from background "
      "pixels only, keep the foreground (alpha max) sharp, blend between",
      KIND_BOOLEAN, NULL, 0, 0, DEFAULT_ALPHA_MASK, EFFECT,
      FIELD (alpha_mask)},
  /**
   * GstCLBoxBlur:mask-feather:
   *
   * With #GstCLBoxBlur:alpha-mask, the radius in pixels of a box blur of
   * the alpha used for the blend (the rounded box mean over
   * (2·N+1)×(2·N+1) pixels, completed past the edge by
   * #GstCLBoxBlur:border; scaled like the radius for subsampled chroma):
   * a softer edge between foreground and background. 0 (the default)
   * blends by the alpha itself. The background's weights are the alpha's,
   * not feathered.
   */
  [PROP_MASK_FEATHER] = {"mask-feather", "Mask feather", "With "
      "alpha-mask: radius in pixels of a box blur of the alpha the blend "
      "uses (0 = the alpha itself)", KIND_UINT, NULL, 0, CLB_MAX_RADIUS,
      DEFAULT_MASK_FEATHER, EFFECT, FIELD (mask_feather)},
};
/* *INDENT-ON* */

static GParamSpec *properties[N_PROPS];

static GParamSpec *
make_pspec (const PropRow * r)
{
  switch (r->kind) {
    case KIND_UINT:
      return g_param_spec_uint (r->name, r->nick, r->blurb, r->min, r->max,
          r->def, r->flags);
    case KIND_INT:
      return g_param_spec_int (r->name, r->nick, r->blurb, r->min, r->max,
          r->def, r->flags);
    case KIND_DOUBLE:
      return g_param_spec_double (r->name, r->nick, r->blurb, r->min, r->max,
          r->def, r->flags);
    case KIND_BOOLEAN:
      return g_param_spec_boolean (r->name, r->nick, r->blurb, r->def != 0,
          r->flags);
    case KIND_ENUM:
      return g_param_spec_enum (r->name, r->nick, r->blurb, r->enum_type (),
          r->def, r->flags);
    case KIND_ROI_TYPES:
      return g_param_spec_string (r->name, r->nick, r->blurb, NULL, r->flags);
  }
  g_return_val_if_reached (NULL);
}

gboolean
gst_cl_box_blur_settings_set (GstCLBoxBlurSettings * settings, guint prop_id,
    const GValue * value)
{
  gpointer field;
  const gchar *s;

  if (prop_id == PROP_0 || prop_id >= N_PROPS)
    return FALSE;
  field = G_STRUCT_MEMBER_P (settings, prop_rows[prop_id].offset);
  if (prop_id == PROP_BLOCK_SIZE && g_value_get_uint (value) % 2 != 0) {
    /* 4:2:0 chroma blocks must line up with luma's */
    g_warning ("clboxblur: block-size %u refused: it must be even (chroma "
        "planes take blocks of half the size); keeping %u",
        g_value_get_uint (value), settings->block_size);
    return TRUE;
  }
  switch (prop_rows[prop_id].kind) {
    case KIND_UINT:
      *(guint *) field = g_value_get_uint (value);
      break;
    case KIND_INT:
      *(gint *) field = g_value_get_int (value);
      break;
    case KIND_DOUBLE:
      *(gdouble *) field = g_value_get_double (value);
      break;
    case KIND_BOOLEAN:
      *(gboolean *) field = g_value_get_boolean (value);
      break;
    case KIND_ENUM:
      *(gint *) field = g_value_get_enum (value);
      break;
    case KIND_ROI_TYPES:{
      GQuark types[GST_CL_BOX_BLUR_MAX_ROI_TYPES], canonical;
      guint n;
      const gchar *reason;

      s = g_value_get_string (value);
      if (!gst_cl_box_blur_parse_roi_types (s, types, &n, &canonical,
              &reason)) {
        g_warning ("clboxblur: %s \"%s\" refused: %s; it keeps %s%s%s",
            prop_rows[prop_id].name, s, reason,
            *(GQuark *) field ? "\"" : "",
            *(GQuark *) field ? g_quark_to_string (*(GQuark *) field) :
            "none (any type)", *(GQuark *) field ? "\"" : "");
        break;
      }
      *(GQuark *) field = canonical;
      memcpy (settings->roi_types, types, n * sizeof (GQuark));
      settings->n_roi_types = n;
      break;
    }
  }
  return TRUE;
}

gboolean
gst_cl_box_blur_settings_get (const GstCLBoxBlurSettings * settings,
    guint prop_id, GValue * value)
{
  gconstpointer field;

  if (prop_id == PROP_0 || prop_id >= N_PROPS)
    return FALSE;
  field = G_STRUCT_MEMBER_P (settings, prop_rows[prop_id].offset);

  switch (prop_rows[prop_id].kind) {
    case KIND_UINT:
      g_value_set_uint (value, *(const guint *) field);
      break;
    case KIND_INT:
      g_value_set_int (value, *(const gint *) field);
      break;
    case KIND_DOUBLE:
      g_value_set_double (value, *(const gdouble *) field);
      break;
    case KIND_BOOLEAN:
      g_value_set_boolean (value, *(const gboolean *) field);
      break;
    case KIND_ENUM:
      g_value_set_enum (value, *(const gint *) field);
      break;
    case KIND_ROI_TYPES:
      g_value_set_string (value, g_quark_to_string (*(const GQuark *) field));
      break;
  }
  return TRUE;
}

void
gst_cl_box_blur_install_properties (GObjectClass * klass)
{
  guint i;

  for (i = PROP_0 + 1; i < N_PROPS; i++)
    properties[i] = make_pspec (&prop_rows[i]);
  g_object_class_install_properties (klass, N_PROPS, properties);

  gst_type_mark_as_plugin_api (GST_TYPE_CL_BOX_BLUR_METHOD, 0);
  gst_type_mark_as_plugin_api (GST_TYPE_CL_BOX_BLUR_BORDER, 0);
  gst_type_mark_as_plugin_api (GST_TYPE_CL_BOX_BLUR_DEVICE_TYPE, 0);
  gst_type_mark_as_plugin_api (GST_TYPE_CL_BOX_BLUR_GL_SHARING, 0);
  gst_type_mark_as_plugin_api (GST_TYPE_CL_BOX_BLUR_REGION_SHAPE, 0);
}

void
gst_cl_box_blur_settings_init (GstCLBoxBlurSettings * settings)
{
  guint i;

  memset (settings, 0, sizeof (*settings));
  for (i = PROP_0 + 1; i < N_PROPS; i++) {
    GValue value = G_VALUE_INIT;

    g_value_init (&value, G_PARAM_SPEC_VALUE_TYPE (properties[i]));
    g_param_value_set_default (properties[i], &value);
    gst_cl_box_blur_settings_set (settings, i, &value);
    g_value_unset (&value);
  }
}

guint
gst_cl_box_blur_settings_radius_y (const GstCLBoxBlurSettings * settings)
{
  return settings->radius_y < 0 ? settings->radius : (guint) settings->radius_y;
}

gboolean
gst_cl_box_blur_settings_filters (const GstCLBoxBlurSettings * settings)
{
  if (settings->method == CLB_METHOD_MOSAIC
      || settings->method == CLB_METHOD_FILL)
    return TRUE;
  if (settings->sigma > 0 && settings->method != CLB_METHOD_BILATERAL)
    return TRUE;
  if (settings->roi_strength > 0 && !settings->region_invert
      && (settings->roi_meta || settings->region_x != 0
          || settings->region_y != 0 || settings->region_width != 0
          || settings->region_height != 0))
    return TRUE;
  return settings->radius > 0
      || gst_cl_box_blur_settings_radius_y (settings) > 0
      || settings->chroma_radius > 0
      || (settings->alpha_radius > 0 && !settings->preserve_alpha);
}
