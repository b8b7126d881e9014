/* Plain-C reference blur for clboxblur's tests and benchmarks.
 * Copyright (C) 2026 The clboxblur authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The box sum is computed in 64 bits as a horizontal window sum per row
 * followed by a vertical window sum per column, each slid one sample at a
 * time over explicitly border-mapped indices. No summed-area table.
 */
#include <stdlib.h>

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
