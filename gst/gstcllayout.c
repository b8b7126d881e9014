/* clboxblur: a video format's storage as the engine's planes and jobs.
 * Copyright (C) 2026 The clboxblur authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <math.h>
#include <string.h>

#include "gstcllayout.h"

/* Bytes per sample container: 2 for 10- and 16-bit formats. */
static guint
container_bytes (const GstVideoInfo * info)
{
  return GST_VIDEO_INFO_COMP_DEPTH (info, 0) > 8 ? 2 : 1;
}

/* Offset of component @c from its pixel's start, in sample containers.
 * GStreamer 1.22's table gives P010_10LE's V a byte offset of 1 (its
 * unpacker does not use it); the V sample is the pixel's second 16-bit
 * container. An offset that is not a whole container is read that way. */
static guint
comp_offset (const GstVideoInfo * info, guint c)
{
  guint bytes = container_bytes (info);
  guint poffset = GST_VIDEO_INFO_COMP_POFFSET (info, c);

  return poffset % bytes == 0 ? poffset / bytes : poffset;
}

void
gst_cl_layout_make_planes (const GstVideoInfo * info,
    ClbPlanes * planes)
{
  guint bytes = container_bytes (info);
  guint depth = GST_VIDEO_INFO_COMP_DEPTH (info, 0);
  guint c;

  memset (planes, 0, sizeof (*planes));
  planes->width = GST_VIDEO_INFO_WIDTH (info);
  planes->height = GST_VIDEO_INFO_HEIGHT (info);
  planes->sample_size = bytes == 2 ? CLB_SAMPLES_16 : CLB_SAMPLES_8;
  planes->shift = GST_VIDEO_FORMAT_INFO_SHIFT (info->finfo, 0);
  planes->big_endian = bytes == 2 && !GST_VIDEO_FORMAT_INFO_IS_LE (info->finfo);
  planes->max_value = (1u << depth) - 1;
  planes->n_planes = GST_VIDEO_INFO_N_PLANES (info);

  /* A plane's rows hold every pixel of every component stored in it. */
  for (c = 0; c < GST_VIDEO_INFO_N_COMPONENTS (info); c++) {
    guint p = GST_VIDEO_INFO_COMP_PLANE (info, c);
    guint row = GST_VIDEO_INFO_COMP_WIDTH (info, c)
        * GST_VIDEO_INFO_COMP_PSTRIDE (info, c) / bytes;

    planes->plane_width[p] = MAX (planes->plane_width[p], row);
    planes->plane_height[p] = MAX (planes->plane_height[p],
        (guint) GST_VIDEO_INFO_COMP_HEIGHT (info, c));
  }
}

/* Swaps bits @k - 1 and @k of @mask. */
static guint
swap_bits (guint mask, guint k)
{
  guint lo = (mask >> (k - 1)) & 1, hi = (mask >> k) & 1;

  return (mask & ~(3u << (k - 1))) | (lo << k) | (hi << (k - 1));
}

/* Puts @job's channels in memory order (BGRA's B, G, R, A as RGBA's R, G,
 * B, A; NV21's V, U as NV12's U, V), so that every channel order reaches
 * the kernels for dense pixels: each channel of a job is filtered alike,
 * and the bilateral range distance is a product over @dist_mask, in any
 * order. */
static void
dense_job (const GstVideoInfo * info, ClbJob * job)
{
  guint i, k;

  for (i = 1; i < job->channels; i++) {
    for (k = i; k > 0 && job->offset[k - 1] > job->offset[k]; k--) {
      guint t = job->offset[k];

      job->offset[k] = job->offset[k - 1];
      job->offset[k - 1] = t;
      job->dist_mask = swap_bits (job->dist_mask, k);
      job->keep_mask = swap_bits (job->keep_mask, k);
    }
  }
}

/* Gives an 8-bit job, alone on its plane, the bytes of its pixels that no
 * channel covers (RGBx's x, alpha kept) as kept channels: the job is then
 * dense (xRGB as 4 channels, offsets 0..3), for the vector kernels, and
 * those bytes still come out as they came in. */
static void
fill_gaps (const GstVideoInfo * info, ClbJob * jobs, guint n_jobs, guint j)
{
  ClbJob *job = &jobs[j];
  guint i, o, c;

  if (container_bytes (info) != 1 || job->pixel_stride > 4)
    return;
  for (i = 0; i < n_jobs; i++) {
    if (i != j && jobs[i].plane == job->plane)
      return;
  }
  for (o = 0; o < job->pixel_stride; o++) {
    for (c = 0; c < job->channels && job->offset[c] != o; c++);
    if (c == job->channels) {
      job->offset[job->channels] = o;
      job->keep_mask |= 1u << job->channels;
      job->channels++;
    }
  }
}

guint
gst_cl_layout_make_jobs (const GstVideoInfo * info,
    gboolean preserve_alpha, ClbJob jobs[CLB_MAX_JOBS])
{
  GstCLRadius derived = { FALSE, 0 }, kept = { TRUE, 0 };

  return gst_cl_layout_make_plane_jobs (info, &derived,
      preserve_alpha ? &kept : &derived, jobs);
}

guint
gst_cl_layout_make_plane_jobs (const GstVideoInfo * info,
    const GstCLRadius * chroma, const GstCLRadius * alpha,
    ClbJob jobs[CLB_MAX_JOBS])
{
  const GstVideoFormatInfo *finfo = info->finfo;
  gboolean has_alpha = GST_VIDEO_INFO_HAS_ALPHA (info);
  gboolean yuv = GST_VIDEO_INFO_IS_YUV (info);
  guint bytes = container_bytes (info);
  guint n_jobs = 0, c, j;

  for (c = 0; c < GST_VIDEO_INFO_N_COMPONENTS (info); c++) {
    gboolean is_alpha = has_alpha && c == GST_VIDEO_COMP_A;
    gboolean is_chroma = yuv && (c == GST_VIDEO_COMP_U
        || c == GST_VIDEO_COMP_V);
    const GstCLRadius *radius = is_alpha ? alpha :
        is_chroma ? chroma : NULL;
    ClbJob job = { 0, };
    ClbJob *to = NULL;

    if (radius && radius->own && radius->radius == 0)
      continue;

    job.plane = GST_VIDEO_INFO_COMP_PLANE (info, c);
    job.width = GST_VIDEO_INFO_COMP_WIDTH (info, c);
    job.height = GST_VIDEO_INFO_COMP_HEIGHT (info, c);
    job.pixel_stride = GST_VIDEO_INFO_COMP_PSTRIDE (info, c) / bytes;
    job.x_sub = GST_VIDEO_FORMAT_INFO_W_SUB (finfo, c);
    job.y_sub = GST_VIDEO_FORMAT_INFO_H_SUB (finfo, c);
    if (radius && radius->own) {
      job.own_radius = TRUE;
      job.radius_x = job.radius_y = radius->radius;
    }

    for (j = 0; j < n_jobs; j++) {
      if (jobs[j].plane == job.plane && jobs[j].width == job.width
          && jobs[j].height == job.height
          && jobs[j].pixel_stride == job.pixel_stride
          && jobs[j].own_radius == job.own_radius
          && jobs[j].radius_x == job.radius_x
          && jobs[j].radius_y == job.radius_y) {
        to = &jobs[j];
        break;
      }
    }
    if (to == NULL) {
      g_assert (n_jobs < CLB_MAX_JOBS);
      to = &jobs[n_jobs++];
      *to = job;
    }
    to->offset[to->channels] = comp_offset (info, c);
    if (!is_alpha)
      to->dist_mask |= 1u << to->channels;
    to->channels++;
  }

  /* A job of alpha alone (A420's alpha plane) measures its own distance. */
  for (j = 0; j < n_jobs; j++) {
    if (jobs[j].dist_mask == 0)
      jobs[j].dist_mask = (1u << jobs[j].channels) - 1;
  }
  for (j = 0; j < n_jobs; j++) {
    fill_gaps (info, jobs, n_jobs, j);
    dense_job (info, &jobs[j]);
  }
  return n_jobs;
}

/* n / d rounded to nearest, halves away from zero; d > 0 */
static gint64
div_round (gint64 n, gint64 d)
{
  return n >= 0 ? (n + d / 2) / d : -((-n + d / 2) / d);
}

void
gst_cl_layout_fill_values (const GstVideoInfo * info, guint32 argb,
    guint values[GST_VIDEO_MAX_COMPONENTS])
{
  guint depth = GST_VIDEO_INFO_COMP_DEPTH (info, 0);
  gint64 max = (G_GINT64_CONSTANT (1) << depth) - 1;
  gint64 r = (argb >> 16) & 0xff, g = (argb >> 8) & 0xff, b = argb & 0xff;
  gint64 a = argb >> 24;
  guint c;

  memset (values, 0, GST_VIDEO_MAX_COMPONENTS * sizeof (guint));
  if (GST_VIDEO_INFO_IS_YUV (info) || GST_VIDEO_INFO_IS_GRAY (info)) {
    gdouble kr = 0.299, kb = 0.114;
    gint64 KR, KB, KG, E, DB, DR, m = G_GINT64_CONSTANT (1) << (depth - 8);
    gint64 y, u, v;

    if (!gst_video_color_matrix_get_Kr_Kb (info->colorimetry.matrix, &kr,
            &kb)) {
      kr = 0.299;
      kb = 0.114;
    }
    KR = (gint64) lround (kr * 65536.0);
    KB = (gint64) lround (kb * 65536.0);
    KG = 65536 - KR - KB;
    E = KR * r + KG * g + KB * b;
    DB = 65536 * b - E;
    DR = 65536 * r - E;
    if (info->colorimetry.range == GST_VIDEO_COLOR_RANGE_16_235) {
      y = 16 * m + div_round (219 * m * E, 255 * 65536);
      u = 128 * m + div_round (224 * m * DB, 510 * (65536 - KB));
      v = 128 * m + div_round (224 * m * DR, 510 * (65536 - KR));
    } else {
      y = div_round (max * E, 255 * 65536);
      u = (max + 1) / 2 + div_round (max * DB, 510 * (65536 - KB));
      v = (max + 1) / 2 + div_round (max * DR, 510 * (65536 - KR));
    }
    values[GST_VIDEO_COMP_Y] = CLAMP (y, 0, max);
    if (GST_VIDEO_INFO_IS_YUV (info)) {
      values[GST_VIDEO_COMP_U] = CLAMP (u, 0, max);
      values[GST_VIDEO_COMP_V] = CLAMP (v, 0, max);
    }
  } else {
    values[GST_VIDEO_COMP_R] = div_round (r * max, 255);
    values[GST_VIDEO_COMP_G] = div_round (g * max, 255);
    values[GST_VIDEO_COMP_B] = div_round (b * max, 255);
  }
  if (GST_VIDEO_INFO_HAS_ALPHA (info))
    values[GST_VIDEO_COMP_A] = div_round (a * max, 255);
  for (c = 0; c < GST_VIDEO_MAX_COMPONENTS; c++)
    values[c] = MIN (values[c], (guint) max);
}

void
gst_cl_layout_set_fill (const GstVideoInfo * info,
    const guint values[GST_VIDEO_MAX_COMPONENTS], ClbJob * jobs,
    guint n_jobs)
{
  guint j, ch, c;

  for (j = 0; j < n_jobs; j++) {
    for (ch = 0; ch < jobs[j].channels; ch++) {
      jobs[j].fill[ch] = 0;
      for (c = 0; c < GST_VIDEO_INFO_N_COMPONENTS (info); c++) {
        if (GST_VIDEO_INFO_COMP_PLANE (info, c) == jobs[j].plane
            && comp_offset (info, c) == jobs[j].offset[ch]
            && GST_VIDEO_INFO_COMP_PSTRIDE (info, c) / container_bytes (info)
            == jobs[j].pixel_stride)
          jobs[j].fill[ch] = values[c];
      }
    }
  }
}

/* Whether every memory of @buf is system memory, which a map reads in
 * place: OpenCL memory (the pools'), GL textures, dmabufs would wait for
 * the device or copy the frame to the host. */
static gboolean
all_system_memory (GstBuffer * buf)
{
  guint i, n = gst_buffer_n_memory (buf);

  for (i = 0; i < n; i++) {
    if (!gst_memory_is_type (gst_buffer_peek_memory (buf, i),
            GST_ALLOCATOR_SYSMEM))
      return FALSE;
  }
  return TRUE;
}

/* What GStreamer 1.22's gst_video_frame_map checks, from the sizes and
 * the GstVideoMeta alone (it asserts the meta's format, size and planes,
 * and checks only that each plane's offset lies inside the buffer); the
 * engine copies whole planes, so every plane's rows must lie inside it.
 * System memory is mapped too: a map there costs nothing, and a buffer
 * that cannot be mapped must not reach GstVideoFilter, which would push
 * its output unwritten. Other memory is never mapped here (issue 40). */
gboolean
gst_cl_layout_buffer_holds_frame (const GstVideoInfo * info,
    const ClbPlanes * planes, GstBuffer * buf)
{
  GstVideoMeta *meta = gst_buffer_get_video_meta (buf);
  gsize size = gst_buffer_get_size (buf);
  guint p;

  if (size == 0)
    return FALSE;
  if (all_system_memory (buf)) {
    GstVideoFrame frame;

    if (!gst_video_frame_map (&frame, info, buf, GST_MAP_READ))
      return FALSE;
    gst_video_frame_unmap (&frame);
  } else if (meta == NULL) {
    return size >= GST_VIDEO_INFO_SIZE (info);
  } else if (meta->format != GST_VIDEO_INFO_FORMAT (info)
      || (gint) meta->width < GST_VIDEO_INFO_WIDTH (info)
      || (gint) meta->height < GST_VIDEO_INFO_HEIGHT (info)
      || meta->n_planes != GST_VIDEO_INFO_N_PLANES (info)) {
    return FALSE;
  }
  if (meta == NULL)
    return TRUE;                /* the map checked the size against info */

  for (p = 0; p < planes->n_planes; p++) {
    guint64 row = (guint64) planes->plane_width[p] * container_bytes (info);

    if (p >= meta->n_planes || meta->stride[p] < 0
        || (guint64) meta->stride[p] < row
        || (guint64) meta->offset[p] + (guint64) meta->stride[p] *
        (planes->plane_height[p] - 1) + row > size)
      return FALSE;
  }
  return TRUE;
}

void
gst_cl_layout_frame_planes (const GstVideoFrame * frame,
    guint8 * data[GST_VIDEO_MAX_PLANES], gsize stride[GST_VIDEO_MAX_PLANES])
{
  guint p;

  for (p = 0; p < GST_VIDEO_FRAME_N_PLANES (frame); p++) {
    data[p] = GST_VIDEO_FRAME_PLANE_DATA (frame, p);
    stride[p] = GST_VIDEO_FRAME_PLANE_STRIDE (frame, p);
  }
}

gboolean
gst_cl_layout_has_fields (const GstVideoInfo * info, GstBuffer * buf)
{
  switch (GST_VIDEO_INFO_INTERLACE_MODE (info)) {
    case GST_VIDEO_INTERLACE_MODE_INTERLEAVED:
      return TRUE;
    case GST_VIDEO_INTERLACE_MODE_MIXED:
      return GST_BUFFER_FLAG_IS_SET (buf, GST_VIDEO_BUFFER_FLAG_INTERLACED);
    default:
      return FALSE;
  }
}

gboolean
gst_cl_layout_make_field_planes (const GstVideoInfo * info,
    ClbPlanes * planes)
{
  guint p;

  gst_cl_layout_make_planes (info, planes);
  if (planes->height % 2 != 0)
    return FALSE;
  planes->height /= 2;
  for (p = 0; p < planes->n_planes; p++) {
    if (planes->plane_height[p] % 2 != 0)
      return FALSE;
    planes->plane_height[p] /= 2;
  }
  return TRUE;
}

void
gst_cl_layout_field_jobs (ClbJob * jobs, guint n_jobs)
{
  guint j;

  for (j = 0; j < n_jobs; j++)
    jobs[j].height /= 2;
}

gboolean
gst_cl_layout_meta_survives (GstMeta * meta)
{
  const gchar *const *tags = gst_meta_api_type_get_tags (meta->info->api);

  for (; tags && *tags; tags++) {
    if (!g_str_equal (*tags, GST_META_TAG_VIDEO_STR)
        && !g_str_equal (*tags, GST_META_TAG_VIDEO_SIZE_STR)
        && !g_str_equal (*tags, GST_META_TAG_VIDEO_ORIENTATION_STR)
        && !g_str_equal (*tags, GST_META_TAG_VIDEO_COLORSPACE_STR))
      return FALSE;
  }
  return TRUE;
}
