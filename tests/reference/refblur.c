/* Plain-C reference blur for clboxblur's tests and benchmarks.
 * Copyright (C) 2026 The clboxblur authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The box sum is computed in 64 bits as a horizontal window sum per row
 * followed by a vertical window sum per column, each slid one sample at a
 * time over explicitly border-mapped indices. No summed-area table.
 * The bilateral filter is the direct double-precision sum over the window.
 */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "refblur.h"

int
ref_border_index (int i, int len, RefBorder border)
{
  int period;

  if (i >= 0 && i < len)
    return i;

  switch (border) {
    case REF_BORDER_SHRINK:
      return -1;
    case REF_BORDER_REPLICATE:
      return i < 0 ? 0 : len - 1;
    case REF_BORDER_REFLECT:
    default:
      if (len == 1)
        return 0;
      period = 2 * (len - 1);
      i %= period;
      if (i < 0)
        i += period;
      return i < len ? i : period - i;
  }
}

/* Sum of samples (and how many) over the window lo..hi of a line. */
typedef struct {
  uint64_t sum;
  uint64_t count;
} Acc;

static void
acc_add (Acc * a, const uint64_t * line, ptrdiff_t step, int i, int len,
    RefBorder border, int sign)
{
  int j = ref_border_index (i, len, border);

  if (j < 0)
    return;
  if (sign > 0) {
    a->sum += line[j * step];
    a->count++;
  } else {
    a->sum -= line[j * step];
    a->count--;
  }
}

/* out[x] = sum over line[border(x - r .. x + r)], counts[x] = terms. */
static void
window_sums (const uint64_t * line, ptrdiff_t step, int len, int r,
    RefBorder border, uint64_t * out, ptrdiff_t out_step, uint64_t * counts)
{
  Acc a = { 0, 0 };
  int i, x;

  for (i = -r; i <= r; i++)
    acc_add (&a, line, step, i, len, border, +1);
  for (x = 0; x < len; x++) {
    out[x * out_step] = a.sum;
    counts[x] = a.count;
    acc_add (&a, line, step, x + r + 1, len, border, +1);
    acc_add (&a, line, step, x - r, len, border, -1);
  }
}

int
ref_box_blur_u8 (const uint8_t * src, size_t src_stride, uint8_t * dst,
    size_t dst_stride, int width, int height, int channels, int rx, int ry,
    RefBorder border)
{
  size_t row_len = (size_t) width * channels;
  uint64_t *line = malloc (sizeof (uint64_t) * (width > height ? width :
          height));
  uint64_t *hsum = malloc (sizeof (uint64_t) * row_len * height);
  uint64_t *vsum = malloc (sizeof (uint64_t) * height);
  uint64_t *xcount = malloc (sizeof (uint64_t) * width);
  uint64_t *ycount = malloc (sizeof (uint64_t) * height);
  int x, y, c, ret = -1;

  if (!line || !hsum || !vsum || !xcount || !ycount)
    goto out;

  /* Horizontal: hsum[y][x][c] = sum of the row's window around x. */
  for (y = 0; y < height; y++) {
    for (c = 0; c < channels; c++) {
      for (x = 0; x < width; x++)
        line[x] = src[y * src_stride + (size_t) x * channels + c];
      window_sums (line, 1, width, rx, border,
          hsum + y * row_len + c, channels, xcount);
    }
  }

  /* Vertical: the window sum of hsum down each column, then the mean. */
  for (x = 0; x < width; x++) {
    for (c = 0; c < channels; c++) {
      size_t col = (size_t) x * channels + c;

      window_sums (hsum + col, (ptrdiff_t) row_len, height, ry, border,
          vsum, 1, ycount);
      for (y = 0; y < height; y++) {
        uint64_t n = xcount[x] * ycount[y];
        dst[y * dst_stride + col] = (uint8_t) ((vsum[y] + n / 2) / n);
      }
    }
  }
  ret = 0;

out:
  free (line);
  free (hsum);
  free (vsum);
  free (xcount);
  free (ycount);
  return ret;
}

/* Adds (@sign > 0) or removes (@sign < 0) element @i of a line of @len
 * elements to or from the window sum @acc: element j is the vector of @k
 * values at in + j * stride, and @i is mapped through ref_border_index
 * (nothing happens when it maps outside, with SHRINK). */
static void
vec_acc (uint64_t * acc, uint64_t * count, const uint64_t * in,
    size_t stride, size_t k, int i, int len, RefBorder border, int sign)
{
  int j = ref_border_index (i, len, border);
  const uint64_t *e;
  size_t m;

  if (j < 0)
    return;
  e = in + (size_t) j * stride;
  if (sign > 0) {
    for (m = 0; m < k; m++)
      acc[m] += e[m];
    (*count)++;
  } else {
    /* Exact: this very element was added when the window reached it. */
    for (m = 0; m < k; m++)
      acc[m] -= e[m];
    (*count)--;
  }
}

/* Sliding window sums along one axis. @in holds @len elements, element i
 * being the @k consecutive values at in + i * stride. For each i, the @k
 * values at out + i * stride receive the element-wise sum over the window
 * i - r .. i + r (indices mapped through ref_border_index), and counts[i]
 * the number of elements summed. @acc is scratch for @k values. */
static void
vec_window_sums (const uint64_t * in, uint64_t * out, size_t stride,
    size_t k, int len, int r, RefBorder border, uint64_t * acc,
    uint64_t * counts)
{
  uint64_t count = 0;
  int i;

  memset (acc, 0, k * sizeof (uint64_t));
  for (i = -r; i <= r; i++)
    vec_acc (acc, &count, in, stride, k, i, len, border, +1);
  for (i = 0; i < len; i++) {
    memcpy (out + (size_t) i * stride, acc, k * sizeof (uint64_t));
    counts[i] = count;
    vec_acc (acc, &count, in, stride, k, i + r + 1, len, border, +1);
    vec_acc (acc, &count, in, stride, k, i - r, len, border, -1);
  }
}

int
ref_box_blur (const uint16_t * src, uint16_t * dst, int width,
    int height, int channels, int rx, int ry, RefBorder border, int passes)
{
  size_t row_len, total, i;
  uint64_t *a = NULL, *b = NULL, *acc = NULL, *xcount = NULL, *ycount = NULL;
  int x, y, c, p, ret = -1;

  if (channels < 1 || rx < 0 || ry < 0)
    return -1;
  if (width <= 0 || height <= 0)
    return 0;

  row_len = (size_t) width * channels;
  if (row_len / channels != (size_t) width
      || row_len > SIZE_MAX / sizeof (uint64_t) / (size_t) height)
    return -1;
  total = row_len * height;

  a = malloc (total * sizeof (uint64_t));
  b = malloc (total * sizeof (uint64_t));
  acc = malloc (row_len * sizeof (uint64_t));
  xcount = malloc (sizeof (uint64_t) * width);
  ycount = malloc (sizeof (uint64_t) * height);
  if (!a || !b || !acc || !xcount || !ycount)
    goto out;

  for (i = 0; i < total; i++)
    a[i] = src[i];

  for (p = 0; p < passes; p++) {
    /* Horizontal: b[y][x][c] = sum of row y's window around x. The counts
     * are the same for every row. */
    for (y = 0; y < height; y++)
      vec_window_sums (a + (size_t) y * row_len, b + (size_t) y * row_len,
          (size_t) channels, (size_t) channels, width, rx, border, acc,
          xcount);

    /* Vertical: a[y][x][c] = sum of b's rows over the window around y,
     * whole rows at a time. */
    vec_window_sums (b, a, row_len, row_len, height, ry, border, acc,
        ycount);

    /* The rounded mean, which is the next pass's input. n: with SHRINK the
     * in-frame part of the window is an xcount[x] x ycount[y] rectangle;
     * otherwise every position counts and n = (2 rx + 1) (2 ry + 1). */
    for (y = 0; y < height; y++) {
      for (x = 0; x < width; x++) {
        uint64_t n = xcount[x] * ycount[y];
        uint64_t *s = a + ((size_t) y * width + x) * channels;

        for (c = 0; c < channels; c++)
          s[c] = (s[c] + n / 2) / n;
      }
    }
  }

  /* Every value is a mean of uint16_t values (or one of them). */
  for (i = 0; i < total; i++)
    dst[i] = (uint16_t) a[i];
  ret = 0;

out:
  free (a);
  free (b);
  free (acc);
  free (xcount);
  free (ycount);
  return ret;
}

int
ref_bilateral (const uint16_t * src, uint16_t * dst, int width,
    int height, int channels, int rx, int ry, RefBorder border,
    double sigma_spatial, double sigma_range, unsigned dist_mask,
    int max_value)
{
  const int mask_bits = (int) (sizeof (unsigned) * CHAR_BIT);
  size_t kw, kh;
  double *spatial = NULL, *sum = NULL;
  double two_ss = 2.0 * sigma_spatial * sigma_spatial;
  double s = sigma_range * max_value / 255.0;
  double two_s2 = 2.0 * s * s;
  int x, y, c, dx, dy, ret = -1;

  if (channels < 1 || rx < 0 || ry < 0)
    return -1;
  if (width <= 0 || height <= 0)
    return 0;

  kw = 2 * (size_t) rx + 1;
  kh = 2 * (size_t) ry + 1;
  if (kw > SIZE_MAX / sizeof (double) / kh)
    return -1;
  spatial = malloc (kw * kh * sizeof (double));
  sum = malloc ((size_t) channels * sizeof (double));
  if (!spatial || !sum)
    goto out;

  /* spatial[(dy + ry) * kw + (dx + rx)] = the spatial factor of (dx, dy). */
  for (dy = -ry; dy <= ry; dy++) {
    for (dx = -rx; dx <= rx; dx++) {
      double d2 = (double) dx * dx + (double) dy * dy;
      double w = 1.0;

      /* d2 == 0 gives exactly exp (0) = 1; skipping it also keeps an
       * underflowed 2 sigma^2 of 0 from making 0 / 0. */
      if (sigma_spatial > 0 && d2 != 0.0)
        w = exp (-d2 / two_ss);
      spatial[(size_t) (dy + ry) * kw + (size_t) (dx + rx)] = w;
    }
  }

  for (y = 0; y < height; y++) {
    for (x = 0; x < width; x++) {
      const uint16_t *centre = src + ((size_t) y * width + x) * channels;
      uint16_t *out = dst + ((size_t) y * width + x) * channels;
      double wsum = 0.0;

      for (c = 0; c < channels; c++)
        sum[c] = 0.0;

      for (dy = -ry; dy <= ry; dy++) {
        int ny = ref_border_index (y + dy, height, border);

        if (ny < 0)
          continue;
        for (dx = -rx; dx <= rx; dx++) {
          int nx = ref_border_index (x + dx, width, border);
          const uint16_t *nb;
          double d = 0.0, w;

          if (nx < 0)
            continue;
          nb = src + ((size_t) ny * width + nx) * channels;

          /* D over the channels in dist_mask (0 when none is). */
          for (c = 0; c < channels && c < mask_bits; c++) {
            if ((dist_mask >> c) & 1u) {
              double diff = (double) nb[c] - (double) centre[c];

              d += diff * diff;
            }
          }

          /* The range factor: exp (0) = 1 when D == 0 (written out, as
           * above); else exp (-D / (2 s^2)) or, if sigma_range <= 0, 0. */
          w = spatial[(size_t) (dy + ry) * kw + (size_t) (dx + rx)];
          if (d != 0.0) {
            if (sigma_range > 0)
              w *= exp (-d / two_s2);
            else
              w = 0.0;
          }

          wsum += w;
          for (c = 0; c < channels; c++)
            sum[c] += w * nb[c];
        }
      }

      /* wsum >= 1: the centre (offset 0, 0) is in the frame, D = 0. */
      for (c = 0; c < channels; c++) {
        double v = floor (sum[c] / wsum + 0.5);

        if (v > (double) max_value)
          v = (double) max_value;
        if (v > (double) UINT16_MAX)
          v = (double) UINT16_MAX;
        if (!(v >= 0.0))
          v = 0.0;
        out[c] = (uint16_t) v;
      }
    }
  }
  ret = 0;

out:
  free (spatial);
  free (sum);
  return ret;
}

uint16_t
ref_box_pixel (const uint8_t * src, size_t stride, int width, int height,
    int channels, int x, int y, int c, int rx, int ry, RefBorder border)
{
  uint64_t sum = 0, n = 0;
  int dx, dy;

  for (dy = -ry; dy <= ry; dy++) {
    int sy = ref_border_index (y + dy, height, border);

    if (sy < 0)
      continue;
    for (dx = -rx; dx <= rx; dx++) {
      int sx = ref_border_index (x + dx, width, border);

      if (sx < 0)
        continue;
      sum += src[(size_t) sy * stride + (size_t) sx * channels + c];
      n++;
    }
  }
  return (uint16_t) ((sum + n / 2) / n);
}

int
ref_mosaic (const uint16_t * src, uint16_t * dst, int width, int height,
    int channels, int bw, int bh)
{
  int bx, by, x, y, c;

  if (width < 1 || height < 1 || channels < 1 || bw < 1 || bh < 1)
    return -1;
  for (by = 0; by < height; by += bh) {
    for (bx = 0; bx < width; bx += bw) {
      int x1 = bx + bw < width ? bx + bw : width;
      int y1 = by + bh < height ? by + bh : height;
      uint64_t n = (uint64_t) (x1 - bx) * (y1 - by);

      for (c = 0; c < channels; c++) {
        uint64_t sum = 0;

        for (y = by; y < y1; y++)
          for (x = bx; x < x1; x++)
            sum += src[((size_t) y * width + x) * channels + c];
        for (y = by; y < y1; y++)
          for (x = bx; x < x1; x++)
            dst[((size_t) y * width + x) * channels + c] =
                (uint16_t) ((sum + n / 2) / n);
      }
    }
  }
  return 0;
}

/* n / d rounded to nearest, halves away from zero (d > 0) */
static int64_t
ref_div_round (int64_t n, int64_t d)
{
  return n >= 0 ? (n + d / 2) / d : -((-n + d / 2) / d);
}

static int
ref_clamp (int64_t v, int max)
{
  return v < 0 ? 0 : v > max ? max : (int) v;
}

void
ref_rgb_to_yuv (int r, int g, int b, double kr, double kb, int bits,
    int full_range, int yuv[3])
{
  int64_t KR = lround (kr * 65536.0), KB = lround (kb * 65536.0);
  int64_t KG = 65536 - KR - KB;
  int64_t E = KR * r + KG * g + KB * b;
  int64_t DB = 65536 * (int64_t) b - E, DR = 65536 * (int64_t) r - E;
  int64_t max = ((int64_t) 1 << bits) - 1, m = (int64_t) 1 << (bits - 8);

  if (full_range) {
    int64_t mid = (int64_t) 1 << (bits - 1);

    yuv[0] = ref_clamp (ref_div_round (max * E, 255 * 65536), max);
    yuv[1] = ref_clamp (mid + ref_div_round (max * DB,
            255 * 2 * (65536 - KB)), max);
    yuv[2] = ref_clamp (mid + ref_div_round (max * DR,
            255 * 2 * (65536 - KR)), max);
  } else {
    yuv[0] = ref_clamp (16 * m + ref_div_round (219 * m * E, 255 * 65536),
        max);
    yuv[1] = ref_clamp (128 * m + ref_div_round (224 * m * DB,
            255 * 2 * (65536 - KB)), max);
    yuv[2] = ref_clamp (128 * m + ref_div_round (224 * m * DR,
            255 * 2 * (65536 - KR)), max);
  }
}
static int64_t
clamp_corner (int64_t v)
{
  return v < -REF_REGION_LIMIT ? -REF_REGION_LIMIT :
      v > REF_REGION_LIMIT ? REF_REGION_LIMIT : v;
}

int
ref_region_holds (RefShape shape, int64_t x, int64_t y, int64_t w,
    int64_t h, int px, int py, int t)
{
  int64_t x0 = clamp_corner (x), y0 = clamp_corner (y);
  int64_t x1 = clamp_corner (x + w), y1 = clamp_corner (y + h);

  if (x1 <= x0 || y1 <= y0)
    return 0;
  if (shape == REF_SHAPE_RECTANGLE) {
    int64_t dx = 0, dy = 0;

    if (px < x0)
      dx = x0 - px;
    else if (px > x1 - 1)
      dx = px - (x1 - 1);
    if (py < y0)
      dy = y0 - py;
    else if (py > y1 - 1)
      dy = py - (y1 - 1);
    return dx * dx + dy * dy <= (int64_t) t * t;
  } else {
    /* In doubled coordinates, to stay in integers: centre (x0 + x1,
     * y0 + y1), semi-axes a = x1 - x0 + 2t, b = y1 - y0 + 2t, the pixel's
     * centre (2 px + 1, 2 py + 1); inside when
     * (X - cx)^2 / a^2 + (Y - cy)^2 / b^2 <= 1. */
    __int128 a = x1 - x0 + 2 * (int64_t) t, b = y1 - y0 + 2 * (int64_t) t;
    __int128 u = 2 * (int64_t) px + 1 - (x0 + x1);
    __int128 v = 2 * (int64_t) py + 1 - (y0 + y1);

    return u * u * b * b + v * v * a * a <= a * a * b * b;
  }
}

int
ref_region_weight (RefShape shape, int feather, int invert,
    const int (*rects)[4], int n, int width, int height, int xs, int ys,
    int x, int y)
{
  int best = feather + 1, px, py, i, t;

  for (py = y << ys; py < (y + 1) << ys && py < height; py++)
    for (px = x << xs; px < (x + 1) << xs && px < width; px++)
      for (i = 0; i < n; i++)
        for (t = 0; t < best; t++)
          if (ref_region_holds (shape, rects[i][0], rects[i][1], rects[i][2],
                  rects[i][3], px, py, t)) {
            best = t;
            break;
          }
  return invert ? best : feather + 1 - best;
}

unsigned
ref_blend (unsigned w, unsigned W, unsigned filtered, unsigned original)
{
  return (w * filtered + (W - w) * original + W / 2) / W;
}

int
ref_mask_blur (const uint16_t * src, const uint16_t * alpha,
    const uint16_t * blend_alpha, const uint16_t * filtered, uint16_t * dst,
    int width, int height, int channels, int rx, int ry, RefBorder border,
    int amax)
{
  int x, y, c, dx, dy;

  if (width < 1 || height < 1 || channels < 1 || rx < 0 || ry < 0
      || amax < 1)
    return -1;
  for (y = 0; y < height; y++) {
    for (x = 0; x < width; x++) {
      size_t p = (size_t) y * width + x;
      uint64_t a = blend_alpha[p];

      for (c = 0; c < channels; c++) {
        uint64_t i = src[p * channels + c], b;

        if (filtered) {
          b = filtered[p * channels + c];
        } else {
          uint64_t siw = 0, sw = 0;

          for (dy = -ry; dy <= ry; dy++) {
            int yy = ref_border_index (y + dy, height, border);

            if (yy < 0)
              continue;
            for (dx = -rx; dx <= rx; dx++) {
              int xx = ref_border_index (x + dx, width, border);
              size_t q;
              uint64_t w;

              if (xx < 0)
                continue;
              q = (size_t) yy * width + xx;
              w = (uint64_t) amax - alpha[q];
              siw += src[q * channels + c] * w;
              sw += w;
            }
          }
          b = sw == 0 ? i : (siw + sw / 2) / sw;
        }
        dst[p * channels + c] = (uint16_t) ((a * i + ((uint64_t) amax - a)
                * b + (uint64_t) amax / 2) / (uint64_t) amax);
      }
    }
  }
  return 0;
}

void
ref_alpha_subsample (const uint16_t * alpha, int width, int height, int xs,
    int ys, uint16_t * out)
{
  int cw = (width + (1 << xs) - 1) >> xs, ch = (height + (1 << ys) - 1) >> ys;
  int x, y, i, j;

  for (y = 0; y < ch; y++) {
    for (x = 0; x < cw; x++) {
      uint64_t sum = 0, n = 0;

      for (j = y << ys; j < ((y + 1) << ys) && j < height; j++) {
        for (i = x << xs; i < ((x + 1) << xs) && i < width; i++) {
          sum += alpha[(size_t) j * width + i];
          n++;
        }
      }
      out[(size_t) y * cw + x] = (uint16_t) ((sum + n / 2) / n);
    }
  }
}

/* ---- temporal denoising ---- */

/* The 10th percentile of the bins (mean |L| in 1/8 units) of pure
 * Gaussian noise of sigma 1 over blocks of D = 1..4 channels. */
static const double ref_noise_k[5] = { 1.0, 3.808, 4.085, 4.212, 4.285 };
/* The agreement threshold and the range sigma, in multiples of the noise
 * left (issue 41's prototype: scripts/temporal-psnr.py). */
#define REF_TEMPORAL_KA 1.2
#define REF_TEMPORAL_KEEP 1.08
#define REF_TEMPORAL_KR 3.0
#define REF_TEMPORAL_ONE (1u << 24)     /* 2^0 in exponents */

static int
ref_depth_shift (int max_value)
{
  int bits = 0;

  while ((max_value >> bits) > 0)
    bits++;
  return bits > 8 ? bits - 8 : 0;
}

void
ref_temporal_tables (RefTemporalTables * t, int level16, int reach, int d,
    int max_value)
{
  double sigma = level16 / 16.0 * max_value / 255.0, var = 0.0, unit;
  int n;

  memset (t, 0, sizeof (*t));
  t->cap = 2 * reach;
  t->rshift = 8 - 2 + ref_depth_shift (max_value);
  unit = (double) (1 << t->rshift) / 256.0;     /* of |dh| >> rshift */
  for (n = 1; n <= t->cap; n++) {
    double a, sr, m;

    t->weight[n] = (uint32_t) floor (256.0 / (n < reach ? n : reach) + 0.5);
    a = t->weight[n] / 256.0;
    var = (1 - a) * (1 - a) * var + a * a;      /* of h, in sigma^2 */
    t->agree[n] = (uint32_t) floor (REF_TEMPORAL_KA * sigma * 256.0 *
        sqrt (2.0 / M_PI) * sqrt (1.0 + var) * 25 * d + 0.5);
    t->keep[n] = (uint32_t) floor (REF_TEMPORAL_KEEP * sigma * 256.0 *
        sqrt (2.0 / M_PI) * sqrt (1.0 + var) * 25 * d + 0.5);
    sr = REF_TEMPORAL_KR * sigma * sqrt (var);
    m = sr > 0 ? floor (REF_TEMPORAL_ONE * M_LOG2E * unit * unit /
        (2 * sr * sr) + 0.5) : REF_TEMPORAL_ONE;
    t->mul[n] = (uint32_t) (m < 1 ? 1 : m > REF_TEMPORAL_ONE ?
        REF_TEMPORAL_ONE : m);
    t->kcut[n] = (9 * REF_TEMPORAL_ONE + t->mul[n] - 1) / t->mul[n];
  }
}

uint32_t
ref_temporal_weight (uint32_t e)
{
  /* e < 19 2^24 (min (k, kcut) mul < 10 2^24, spatial <= 9 2^24) */
  return (((1u << 25) - (e & 0xffffffu)) >> 17) >> (e >> 24);
}

uint32_t
ref_noise_histogram (const uint16_t * src, int width, int height,
    int channels, unsigned dist_mask, int max_value, uint32_t * hist)
{
  int bx, by, x, y, c, i, j, d = 0, ds = ref_depth_shift (max_value);
  uint32_t blocks = 0;

  memset (hist, 0, REF_NOISE_BINS * sizeof (uint32_t));
  for (c = 0; c < channels && c < 32; c++)
    d += (dist_mask >> c) & 1u;
  if (d == 0)
    return 0;
  for (by = 0; 8 * by + 9 < height; by++) {
    for (bx = 0; 8 * bx + 9 < width; bx++) {
      uint32_t s = 0, bin;
      int clipped = 0;

      for (y = 8 * by; y < 8 * by + 10; y++)
        for (x = 8 * bx; x < 8 * bx + 10; x++)
          for (c = 0; c < channels && c < 32; c++) {
            int v = src[((size_t) y * width + x) * channels + c];

            if (((dist_mask >> c) & 1u) && (v <= 0 || v >= max_value))
              clipped = 1;
          }
      if (clipped)
        continue;
      for (y = 8 * by + 1; y <= 8 * by + 8; y++)
        for (x = 8 * bx + 1; x <= 8 * bx + 8; x++)
          for (c = 0; c < channels && c < 32; c++) {
            int l = 0;

            if (!((dist_mask >> c) & 1u))
              continue;
            for (j = -1; j <= 1; j++)
              for (i = -1; i <= 1; i++)
                l += (j ? 1 : -2) * (i ? 1 : -2) *
                    src[((size_t) (y + j) * width + x + i) * channels + c];
            s += (uint32_t) abs (l);
          }
      bin = ((s << 3) / (64u * d)) >> ds;
      hist[bin < REF_NOISE_BINS ? bin : REF_NOISE_BINS - 1]++;
      blocks++;
    }
  }
  return blocks;
}

int
ref_noise_level (const uint32_t * hist, int d, int max_value)
{
  uint64_t total = 0, cum = 0;
  int b;

  for (b = 0; b < REF_NOISE_BINS; b++)
    total += hist[b];
  if (total == 0 || d < 1 || d > 4)
    return -1;
  for (b = 0; b < REF_NOISE_BINS; b++) {
    cum += hist[b];
    if (cum * 10 >= total)
      break;
  }
  /* bins are mean |L| in 1/8 native units; 255 / max_value: 8-bit units */
  return (int) floor (16.0 * (b + 0.5) * (1 << ref_depth_shift (max_value))
      / 8.0 / ref_noise_k[d] * 255.0 / max_value + 0.5);
}

int
ref_temporal_init (RefTemporal * t, int width, int height, int channels)
{
  size_t n = (size_t) width * height;

  t->history = calloc (n * channels, sizeof (uint32_t));
  t->count = calloc (n ? n : 1, 1);
  t->level16 = t->e[0] = t->e[1] = -1;
  t->frames = 0;
  t->width = width;
  t->height = height;
  t->channels = channels;
  if (!t->history || !t->count) {
    ref_temporal_clear (t);
    return -1;
  }
  return 0;
}

void
ref_temporal_clear (RefTemporal * t)
{
  free (t->history);
  free (t->count);
  t->history = NULL;
  t->count = NULL;
}

int
ref_temporal_frame (RefTemporal * t, const uint16_t * src, uint16_t * dst,
    unsigned dist_mask, int max_value, int noise16, int reach, int rx,
    int ry, double sigma_spatial, RefBorder border)
{
  int w = t->width, h = t->height, ch = t->channels, d = 0;
  int x, y, c, i, j, e, level = noise16, kw = 2 * rx + 1;
  uint32_t *hist, *sp;
  uint8_t *count;
  RefTemporalTables *tab;

  if (reach < 1 || reach > REF_TEMPORAL_MAX_REACH || rx < 0 || ry < 0)
    return -1;
  for (c = 0; c < ch && c < 32; c++)
    d += (dist_mask >> c) & 1u;
  hist = malloc (REF_NOISE_BINS * sizeof (uint32_t));
  tab = malloc (sizeof (*tab));
  count = malloc ((size_t) w * h);
  sp = malloc ((size_t) kw * (2 * ry + 1) * sizeof (uint32_t));
  if (!hist || !tab || !count || !sp) {
    free (hist);
    free (tab);
    free (count);
    free (sp);
    return -1;
  }
  /* 1. the level: frame n filtered at that of frames 0 .. n-2 (frame 0
   * at its own, frame 1 at frame 0's) */
  e = ref_noise_histogram (src, w, h, ch, dist_mask, max_value, hist) ?
      ref_noise_level (hist, d, max_value) : -1;
  if (t->frames == 0)
    t->level16 = e;
  else if (t->frames >= 3 && t->e[1] >= 0)
    t->level16 = t->level16 < 0 ? t->e[1] :
        (3 * t->level16 + t->e[1] + 2) >> 2;
  t->e[1] = t->e[0];
  t->e[0] = e;
  t->frames += t->frames < 3;
  if (noise16 <= 0)
    level = t->level16;
  if (level < 0)
    level = 16 * 8;             /* no estimate yet: 8 (a frame too small) */
  if (level == 0)
    level = 1;
  ref_temporal_tables (tab, level, reach, d, max_value);
  for (j = -ry; j <= ry; j++)
    for (i = -rx; i <= rx; i++)
      sp[(j + ry) * kw + i + rx] = sigma_spatial > 0 ? (uint32_t) fmin (floor
          (REF_TEMPORAL_ONE * M_LOG2E * (i * i + j * j) / (2 * sigma_spatial
                  * sigma_spatial) + 0.5), 9.0 * REF_TEMPORAL_ONE) : 0;

  /* 2. the blend */
  for (y = 0; y < h; y++)
    for (x = 0; x < w; x++) {
      uint32_t a = 0;
      int n = t->count[(size_t) y * w + x];

      for (j = -2; j <= 2; j++)
        for (i = -2; i <= 2; i++) {
          int sy = ref_border_index (y + j, h, REF_BORDER_REPLICATE);
          int sx = ref_border_index (x + i, w, REF_BORDER_REPLICATE);
          size_t p = ((size_t) sy * w + sx) * ch;

          for (c = 0; c < ch && c < 32; c++)
            if ((dist_mask >> c) & 1u)
              a += (uint32_t) abs (((int32_t) src[p + c] << 8) -
                  (int32_t) t->history[p + c]);
        }
      if (n == 0 || a > tab->agree[n])
        n = 1;                  /* disagrees: starts again */
      else if (a > tab->keep[n])
        n = n / 2 > 0 ? n / 2 : 1;      /* doubtful: halved */
      else if (n < tab->cap)
        n++;
      count[(size_t) y * w + x] = (uint8_t) n;
    }
  for (i = 0; i < w * h; i++) {
    uint32_t wt = tab->weight[count[i]];

    t->count[i] = count[i];
    for (c = 0; c < ch; c++) {
      int32_t hv = (int32_t) t->history[(size_t) i * ch + c];
      int64_t diff = ((int64_t) src[(size_t) i * ch + c] << 8) - hv;

      /* floor division by 256: an arithmetic shift, written out */
      int64_t q = diff * wt + 128;
      t->history[(size_t) i * ch + c] = (uint32_t) (hv +
          (q >= 0 ? q / 256 : -((-q + 255) / 256)));
    }
  }

  /* 3. the bilateral on the history */
  for (y = 0; y < h; y++)
    for (x = 0; x < w; x++) {
      const uint32_t *ctr = t->history + ((size_t) y * w + x) * ch;
      int n = t->count[(size_t) y * w + x];
      uint64_t sum[4] = { 0, 0, 0, 0 }, ws = 0;

      for (j = -ry; j <= ry; j++) {
        int sy = ref_border_index (y + j, h, border);

        if (sy < 0)
          continue;
        for (i = -rx; i <= rx; i++) {
          int sx = ref_border_index (x + i, w, border);
          const uint32_t *nb;
          uint32_t wt, k;

          if (sx < 0)
            continue;
          nb = t->history + ((size_t) sy * w + sx) * ch;
          k = 0;
          for (c = 0; c < ch && c < 32; c++)
            if ((dist_mask >> c) & 1u) {
              uint32_t u = (uint32_t) abs ((int32_t) nb[c] -
                  (int32_t) ctr[c]) >> tab->rshift;

              k += u * u;
            }
          wt = ref_temporal_weight ((k < tab->kcut[n] ? k : tab->kcut[n]) *
              tab->mul[n] + sp[(j + ry) * kw + i + rx]);
          ws += wt;
          for (c = 0; c < ch && c < 4; c++)
            sum[c] += (uint64_t) wt * nb[c];
        }
      }
      for (c = 0; c < ch && c < 4; c++) {
        uint64_t v = ws ? (sum[c] + (ws << 7)) / (ws << 8) :
            (ctr[c] + 128) >> 8;

        dst[((size_t) y * w + x) * ch + c] =
            (uint16_t) (v > (uint64_t) max_value ? (uint64_t) max_value : v);
      }
    }
  free (hist);
  free (tab);
  free (count);
  free (sp);
  return 0;
}
