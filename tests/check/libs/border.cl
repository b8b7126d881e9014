/* SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The border's closed forms (kernels/common.cl) against plain walks over
 * clb_border_index, built after kernels/loops.h and kernels/common.cl by
 * tests/check/libs/border.c. s: a line of max_len samples; work-item
 * (len - 1, border) checks lines of len samples, radii 0 .. len + 2 and
 * positions up to three lengths outside the line, and writes to bad[id]
 * how many checks failed, to what[id] the first (a code, see the test,
 * and the case). */

/* The sum and count of positions lo .. hi of the extended line. */
wide_t
clb_test_walk (__global const uint *s, int lo, int hi, int len, int border,
               uint *count)
{
    wide_t sum = 0;
    *count = 0;
    for (int k = lo; k <= hi; k++) {
        int j = clb_border_index (k, len, border);
        if (j >= 0) {
            sum += s[j];
            (*count)++;
        }
    }
    return sum;
}

/* U(n) by the walk; p(j) of the line itself. */
wide_t
clb_test_u (__global const uint *s, int n, int len, int border)
{
    uint count;
    return n >= 0 ? clb_test_walk (s, 0, n, len, border, &count)
        : (wide_t) 0 - clb_test_walk (s, n + 1, -1, len, border, &count);
}

wide_t
clb_test_p (__global const uint *s, int j)
{
    uint count;
    return clb_test_walk (s, 0, j, j + 1, CLB_BORDER_SHRINK, &count);
}

wide_t
clb_test_terms (__global const uint *s, const clb_terms *t)
{
    wide_t sum = 0;
    for (int i = 0; i < t->n; i++)
        sum += t->coef[i] * clb_test_p (s, t->idx[i]);
    return sum;
}

#define CLB_TEST_P(j) clb_test_p (s, (j))
#define CLB_TEST_CHECK(ok, code, a, b)                                      \
    do {                                                                    \
        if (!(ok)) {                                                        \
            if (bad[id]++ == 0)                                             \
                vstore4 ((int4) ((code), (a), (b), 0), id, what);           \
        }                                                                   \
    } while (0)

__kernel void
clb_border_test (__global const uint *s, int max_len, __global uint *bad,
                 __global int *what)
{
    /* a work-item per line length, border and radius, and one more per
     * length and border for the prefixes (r = max_len + 3): each within
     * the 65,535 loop iterations rusticl's llvmpipe runs a work-item */
    int id = get_global_id (0) * get_global_size (1) + get_global_id (1);
    int len = get_global_id (0) / 3 + 1, border = get_global_id (0) % 3;
    int r = get_global_id (1);
    bad[id] = 0;
    if (len > max_len || (r > len + 2 && r != max_len + 3))
        return;
    if (r <= len + 2) {
        for (int i = 0; i < len; i++) {
            uint walked, n;
            /* 1: the count of a window around a position of the line */
            clb_test_walk (s, i - r, i + r, len, border, &walked);
            CLB_TEST_CHECK (clb_border_count (i, r, len, border) == walked,
                            1, i, r);
            /* 2: the same, 16 lanes at a time (SHRINK) */
            int16 x = (int16) (i) + (int16) (0, 1, 2, 3, 4, 5, 6, 7, 8, 9,
                                             10, 11, 12, 13, 14, 15);
            int c[16];
            vstore16 (CLB_SHRINK_COUNT (int16, x, r, len), 0, c);
            for (int k = 0; k < 16 && i + k < len; k++)
                CLB_TEST_CHECK (border != CLB_BORDER_SHRINK
                                || (uint) c[k]
                                == clb_border_count (i + k, r, len, border),
                                2, i + k, r);
            /* 3: the window's terms (its sum) and count */
            clb_terms t;
            clb_border_window (&t, i - r, i + r, len, border, &n);
            CLB_TEST_CHECK (n == walked && t.n <= CLB_MAX_TERMS
                            && clb_test_terms (s, &t)
                            == clb_test_walk (s, i - r, i + r, len, border,
                                              &walked), 3, i, r);
        }
        /* 4: windows anywhere on the extended line (not SHRINK) */
        for (int lo = -3 * len - r; border != CLB_BORDER_SHRINK
             && lo <= 3 * len; lo++) {
            uint walked, n;
            clb_terms t;
            wide_t sum = clb_test_walk (s, lo, lo + 2 * r, len, border,
                                        &walked);
            clb_border_window (&t, lo, lo + 2 * r, len, border, &n);
            CLB_TEST_CHECK (n == walked && t.n <= CLB_MAX_TERMS
                            && clb_test_terms (s, &t) == sum, 4, lo, r);
        }
        return;
    }
    for (int n = -3 * len; n <= 3 * len; n++) {
        wide_t u = clb_test_u (s, n, len, border);
        /* 5: U(n) as terms (not SHRINK) */
        if (border != CLB_BORDER_SHRINK) {
            clb_terms t;
            t.n = 0;
            clb_border_prefix (&t, n, len, border, 1);
            CLB_TEST_CHECK (clb_test_terms (s, &t) == u, 5, n, 0);
        }
        /* 6, 7: U(n) one reflection before or after the line */
        if (len >= 2 && n < 0 && n > -len)
            CLB_TEST_CHECK (CLB_BORDER_PREFIX_BEFORE (border, n,
                                                      CLB_TEST_P (0),
                                                      CLB_TEST_P (-n - 1))
                            == u, 6, n, 0);
        if (len >= 2 && n >= len && n < 2 * len - 1)
            CLB_TEST_CHECK (CLB_BORDER_PREFIX_AFTER (border, n, len,
                                                     CLB_TEST_P (len - 1),
                                                     CLB_TEST_P (len - 2),
                                                     CLB_TEST_P (2 * len - 3
                                                                 - n))
                            == u, 7, n, 0);
    }
}
#undef CLB_TEST_CHECK
#undef CLB_TEST_P
