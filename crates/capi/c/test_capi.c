/* The C ABI from C: the MSM of the files equals the CLI's result, and every
 * kind of bad input gives its error code, message, index and byte offset.
 * Run by crates/capi/test.sh (also under valgrind).
 *
 *   test_capi CURVE(377|381) POINTS_FILE SCALARS_FILE EXPECTED_HEX
 */
#include "zkmsm.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures = 0;
static int checks = 0;

#define CHECK(cond, ...)                                   \
    do {                                                   \
        checks++;                                          \
        if (!(cond)) {                                     \
            failures++;                                    \
            fprintf(stderr, "FAIL line %d: ", __LINE__);   \
            fprintf(stderr, __VA_ARGS__);                  \
            fprintf(stderr, "\n");                         \
        }                                                  \
    } while (0)

static unsigned char *read_file(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f) {
        perror(path);
        exit(2);
    }
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned char *buf = malloc(n > 0 ? (size_t)n : 1);
    if (n > 0 && fread(buf, 1, (size_t)n, f) != (size_t)n) {
        perror(path);
        exit(2);
    }
    fclose(f);
    *len = (size_t)n;
    return buf;
}

static void to_hex(const unsigned char *b, size_t n, char *out) {
    for (size_t i = 0; i < n; i++) sprintf(out + 2 * i, "%02x", b[i]);
}

static const char *err(void) {
    const char *e = zkmsm_last_error();
    return e ? e : "(none)";
}

int main(int argc, char **argv) {
    if (argc != 5) {
        fprintf(stderr, "usage: %s 377|381|bn254[g2] POINTS SCALARS EXPECTED_HEX\n", argv[0]);
        return 2;
    }
    /* "381" is BLS12-381 G1, "381g2" its G2 */
    uint32_t base = strncmp(argv[1], "377", 3) == 0 ? ZKMSM_BLS12_377
                  : strncmp(argv[1], "bn254", 5) == 0 ? ZKMSM_BN254
                                                      : ZKMSM_BLS12_381;
    int g2 = strstr(argv[1], "g2") != NULL;
    uint32_t curve = base | (g2 ? ZKMSM_G2 : 0);
    size_t plen, slen;
    unsigned char *points = read_file(argv[2], &plen);
    unsigned char *scalars = read_file(argv[3], &slen);
    const char *expected = argv[4];
    size_t n = slen / 32;
    size_t psize = zkmsm_point_size(curve, ZKMSM_COMPRESSED);
    unsigned char out[ZKMSM_RESULT_BYTES];
    char hex[2 * ZKMSM_RESULT_BYTES + 1];

    /* Context, MSM twice (the context is reused), equals the CLI. */
    ZkmsmContext *ctx = NULL;
    int rc = zkmsm_context_new(curve, points, plen, ZKMSM_COMPRESSED, 1, 1, &ctx);
    CHECK(rc == ZKMSM_OK && ctx != NULL, "context_new: %d %s", rc, err());
    CHECK(zkmsm_context_len(ctx) == n, "len %zu != %zu", zkmsm_context_len(ctx), n);
    for (int round = 0; round < 2; round++) {
        rc = zkmsm_msm(ctx, scalars, slen, out, sizeof out);
        to_hex(out, psize, hex);
        CHECK(rc == ZKMSM_OK && strcmp(hex, expected) == 0, "msm: %d %s: %s != %s", rc, err(), hex, expected);
        CHECK(zkmsm_last_error() == NULL, "no error after success");
    }

    /* Fixed-base mode and the one-shot give the same. */
    ZkmsmContext *pre = NULL;
    rc = zkmsm_context_new(curve, points, plen, ZKMSM_COMPRESSED, 3, 0, &pre);
    CHECK(rc == ZKMSM_OK, "precompute context: %d %s", rc, err());
    rc = zkmsm_msm(pre, scalars, slen, out, sizeof out);
    to_hex(out, psize, hex);
    CHECK(rc == ZKMSM_OK && strcmp(hex, expected) == 0, "precompute msm: %s", hex);
    zkmsm_context_free(pre);
    /* More copies than windows are as many copies as windows: built, not
     * refused for the memory M copies would take. */
    rc = zkmsm_context_new(curve, points, plen, ZKMSM_COMPRESSED, UINT32_MAX, 0, &pre);
    CHECK(rc == ZKMSM_OK, "precompute 2^32 - 1: %d %s", rc, err());
    rc = zkmsm_msm(pre, scalars, slen, out, sizeof out);
    to_hex(out, psize, hex);
    CHECK(rc == ZKMSM_OK && strcmp(hex, expected) == 0, "precompute 2^32 - 1 msm: %s", hex);
    zkmsm_context_free(pre);
    rc = zkmsm_msm_oneshot(curve, points, plen, ZKMSM_DETECT, scalars, slen, out, sizeof out);
    to_hex(out, psize, hex);
    CHECK(rc == ZKMSM_OK && strcmp(hex, expected) == 0, "oneshot: %d %s", rc, err());

    /* The scalars big-endian (each 32-byte word reversed), said by the flag
     * ZKMSM_SCALARS_BIG_ENDIAN: the same result from a context and the
     * one-shot; a big-endian scalar >= r named at its byte offset. */
    unsigned char *be = malloc(slen);
    for (size_t i = 0; i < n; i++)
        for (int k = 0; k < 32; k++) be[32 * i + k] = scalars[32 * i + 31 - k];
    ZkmsmContext *bectx = NULL;
    rc = zkmsm_context_new(curve, points, plen, ZKMSM_COMPRESSED | ZKMSM_SCALARS_BIG_ENDIAN, 1, 0, &bectx);
    CHECK(rc == ZKMSM_OK, "big-endian context: %d %s", rc, err());
    rc = zkmsm_msm(bectx, be, slen, out, sizeof out);
    to_hex(out, psize, hex);
    CHECK(rc == ZKMSM_OK && strcmp(hex, expected) == 0, "big-endian msm: %d %s %s", rc, err(), hex);
    rc = zkmsm_msm_oneshot(curve, points, plen, ZKMSM_DETECT | ZKMSM_SCALARS_BIG_ENDIAN, be, slen, out, sizeof out);
    to_hex(out, psize, hex);
    CHECK(rc == ZKMSM_OK && strcmp(hex, expected) == 0, "big-endian oneshot: %d %s", rc, err());
    if (n > 1) {
        be[32] = 0xff; /* scalar 1's most significant byte: above r */
        rc = zkmsm_msm(bectx, be, slen, out, sizeof out);
        CHECK(rc == ZKMSM_ERR_SCALARS && zkmsm_last_error_index() == 1 && zkmsm_last_error_offset() == 32,
              "big-endian scalar >= r: %d %s", rc, err());
    }
    zkmsm_context_free(bectx);
    free(be);

    /* A scalar >= r (all 0xff) at index 3: its index and byte offset. */
    unsigned char *bad_s = malloc(slen);
    memcpy(bad_s, scalars, slen);
    memset(bad_s + 3 * 32, 0xff, 32);
    rc = zkmsm_msm(ctx, bad_s, slen, out, sizeof out);
    CHECK(rc == ZKMSM_ERR_SCALARS && zkmsm_last_error_index() == 3 && zkmsm_last_error_offset() == 96,
          "bad scalar: %d %s index %lld offset %lld", rc, err(), (long long)zkmsm_last_error_index(),
          (long long)zkmsm_last_error_offset());
    CHECK(strstr(err(), "scalar 3") != NULL, "message names the scalar: %s", err());
    /* Truncated scalars; too few scalars. */
    rc = zkmsm_msm(ctx, scalars, slen - 1, out, sizeof out);
    CHECK(rc == ZKMSM_ERR_SCALARS, "truncated scalars: %d %s", rc, err());
    rc = zkmsm_msm(ctx, scalars, slen - 32, out, sizeof out);
    CHECK(rc == ZKMSM_ERR_LENGTH, "fewer scalars: %d %s", rc, err());
    free(bad_s);

    /* A corrupted point at index 5 (flags/x changed): named with its offset. */
    unsigned char *bad_p = malloc(plen);
    memcpy(bad_p, points, plen);
    for (size_t k = 0; k < psize; k++) bad_p[5 * psize + k] ^= 0x5a;
    ZkmsmContext *bad = (ZkmsmContext *)0x1;
    rc = zkmsm_context_new(curve, bad_p, plen, ZKMSM_COMPRESSED, 1, 1, &bad);
    CHECK(rc == ZKMSM_ERR_POINTS && bad == NULL && zkmsm_last_error_index() == 5 &&
              zkmsm_last_error_offset() == (int64_t)(5 * psize),
          "bad point: %d %s", rc, err());
    /* Not a whole number of points. */
    rc = zkmsm_context_new(curve, points, plen - 3, ZKMSM_COMPRESSED, 1, 1, &bad);
    CHECK(rc == ZKMSM_ERR_POINTS, "truncated points: %d %s", rc, err());
    free(bad_p);

    /* Arguments: unknown curve and format, NULLs, small output buffer. */
    rc = zkmsm_context_new(7, points, plen, ZKMSM_COMPRESSED, 1, 1, &bad);
    CHECK(rc == ZKMSM_ERR_UNSUPPORTED, "unknown curve: %d", rc);
    rc = zkmsm_context_new(curve, points, plen, 9, 1, 1, &bad);
    CHECK(rc == ZKMSM_ERR_UNSUPPORTED, "unknown format: %d", rc);
    rc = zkmsm_context_new(curve, NULL, plen, ZKMSM_COMPRESSED, 1, 1, &bad);
    CHECK(rc == ZKMSM_ERR_ARGUMENT, "NULL points: %d", rc);
    rc = zkmsm_context_new(curve, points, plen, ZKMSM_COMPRESSED, 1, 1, NULL);
    CHECK(rc == ZKMSM_ERR_ARGUMENT, "NULL out: %d", rc);
    rc = zkmsm_msm(NULL, scalars, slen, out, sizeof out);
    CHECK(rc == ZKMSM_ERR_ARGUMENT, "NULL ctx: %d", rc);
    rc = zkmsm_msm(ctx, scalars, slen, out, 10);
    CHECK(rc == ZKMSM_ERR_ARGUMENT, "small out: %d %s", rc, err());
    CHECK(zkmsm_point_size(ZKMSM_BLS12_381, ZKMSM_UNCOMPRESSED) == 96, "point size");
    CHECK(zkmsm_point_size(ZKMSM_BLS12_381 | ZKMSM_G2, ZKMSM_UNCOMPRESSED) == 192, "G2 point size");
    CHECK(zkmsm_point_size(ZKMSM_BN254 | ZKMSM_G2, ZKMSM_COMPRESSED) == 64, "BN254 G2 point size");
    CHECK(psize <= ZKMSM_RESULT_BYTES, "a result fits ZKMSM_RESULT_BYTES");
    CHECK(zkmsm_point_size(5, ZKMSM_COMPRESSED) == 0, "point size of unknown curve");

    /* A successful call clears the last error, whichever function it is. */
    CHECK(zkmsm_point_size(5, ZKMSM_COMPRESSED) == 0 && zkmsm_last_error() != NULL, "unknown curve sets an error");
    CHECK(zkmsm_point_size(curve, ZKMSM_DETECT) == 0 && zkmsm_last_error() != NULL, "DETECT has no size, says so");
    CHECK(zkmsm_point_size(curve, ZKMSM_COMPRESSED) == psize && zkmsm_last_error() == NULL,
          "point_size clears the last error: %s", err());
    rc = zkmsm_msm(NULL, scalars, slen, out, sizeof out);
    CHECK(zkmsm_context_len(ctx) == n && zkmsm_last_error() == NULL, "context_len clears the last error: %s", err());

    /* The output buffer is checked before the MSM: with a bad scalar and no
     * output buffer the answer is the buffer, not the scalar. */
    unsigned char *bad_s2 = malloc(slen);
    memcpy(bad_s2, scalars, slen);
    memset(bad_s2 + 1 * 32, 0xff, 32);
    rc = zkmsm_msm(ctx, bad_s2, slen, NULL, sizeof out);
    CHECK(rc == ZKMSM_ERR_ARGUMENT && strstr(err(), "output buffer") != NULL, "NULL out before the MSM: %d %s", rc,
          err());
    rc = zkmsm_msm_oneshot(curve, points, plen, ZKMSM_DETECT, bad_s2, slen, out, psize - 1);
    CHECK(rc == ZKMSM_ERR_ARGUMENT, "oneshot: small out before the MSM: %d %s", rc, err());

    /* One-shot: the counts are compared before the scalars are decoded (one
     * scalar more than there are points, the first of them >= r). */
    unsigned char *more = malloc(slen + 32);
    memcpy(more, bad_s2, slen);
    memset(more + slen, 0, 32);
    rc = zkmsm_msm_oneshot(curve, points, plen, ZKMSM_DETECT, more, slen + 32, out, sizeof out);
    CHECK(rc == ZKMSM_ERR_LENGTH && strstr(err(), "scalars need") != NULL, "oneshot counts first: %d %s", rc, err());
    free(more);
    free(bad_s2);

    /* One-shot: the scalars' 8-byte length prefix, as the CLI reads it. */
    unsigned char *prefixed = malloc(slen + 8);
    uint64_t count = n;
    for (int k = 0; k < 8; k++) prefixed[k] = (unsigned char)(count >> (8 * k));
    memcpy(prefixed + 8, scalars, slen);
    rc = zkmsm_msm_oneshot(curve, points, plen, ZKMSM_DETECT, prefixed, slen + 8, out, sizeof out);
    to_hex(out, psize, hex);
    CHECK(rc == ZKMSM_OK && strcmp(hex, expected) == 0, "oneshot with a scalars prefix: %d %s", rc, err());
    /* The context's MSM reads the prefix by the same rule (it blamed the end
     * of the input: "truncated scalar"). */
    rc = zkmsm_msm(ctx, prefixed, slen + 8, out, sizeof out);
    to_hex(out, psize, hex);
    CHECK(rc == ZKMSM_OK && strcmp(hex, expected) == 0, "context msm with a scalars prefix: %d %s", rc, err());
    prefixed[0] ^= 1;
    rc = zkmsm_msm_oneshot(curve, points, plen, ZKMSM_DETECT, prefixed, slen + 8, out, sizeof out);
    CHECK(rc == ZKMSM_ERR_SCALARS && zkmsm_last_error_offset() == 0, "wrong scalars prefix: %d %s", rc, err());
    rc = zkmsm_msm(ctx, prefixed, slen + 8, out, sizeof out);
    CHECK(rc == ZKMSM_ERR_SCALARS && zkmsm_last_error_offset() == 0 && strstr(err(), "length prefix") != NULL,
          "wrong scalars prefix, context msm: %d %s", rc, err());
    free(prefixed);

    /* ZKMSM_EVM is Ethereum's layout: EIP-196/197 on BN254 (64 bytes),
     * EIP-2537 on BLS12-381 (128 bytes); refused on BLS12-377 before any
     * point is read, and it has no point size there. */
    if (base == ZKMSM_BLS12_377) {
        rc = zkmsm_context_new(curve, points, plen, ZKMSM_EVM, 1, 1, &bad);
        CHECK(rc == ZKMSM_ERR_UNSUPPORTED && bad == NULL && strstr(err(), "no EVM point layout") != NULL,
              "EVM context off BN254: %d %s", rc, err());
        rc = zkmsm_msm_oneshot(curve, points, plen, ZKMSM_EVM, scalars, slen, out, sizeof out);
        CHECK(rc == ZKMSM_ERR_UNSUPPORTED, "EVM one-shot off BN254: %d %s", rc, err());
        CHECK(zkmsm_point_size(curve, ZKMSM_EVM) == 0 && strstr(err(), "EVM") != NULL, "EVM point size off BN254: %s",
              err());
    } else {
        size_t evm = (base == ZKMSM_BN254 ? 64 : 128) * (g2 ? 2 : 1);
        CHECK(zkmsm_point_size(curve, ZKMSM_EVM) == evm, "EVM point size");
    }

    /* Lengths whose work cannot be allocated: an error code, no abort, no
     * panic message, and nothing read past the real buffer. */
    rc = zkmsm_context_new(curve, points, ((size_t)1 << 40) * psize, ZKMSM_COMPRESSED, 1, 1, &bad);
    CHECK(rc == ZKMSM_ERR_MEMORY && bad == NULL && strstr(err(), "memory") != NULL, "2^40 points: %d %s", rc,
          err());
    /* Lengths no buffer can have (above PTRDIFF_MAX): refused before any
     * slice is made of them. */
    rc = zkmsm_context_new(curve, points, SIZE_MAX - 15, ZKMSM_COMPRESSED, 1, 1, &bad);
    CHECK(rc == ZKMSM_ERR_ARGUMENT && bad == NULL && strstr(err(), "points") != NULL,
          "SIZE_MAX - 15 bytes of points: %d %s", rc, err());
    rc = zkmsm_msm(ctx, scalars, SIZE_MAX, out, sizeof out);
    CHECK(rc == ZKMSM_ERR_ARGUMENT && strstr(err(), "scalars") != NULL, "SIZE_MAX bytes of scalars: %d %s", rc,
          err());

    /* The empty MSM is the identity. */
    ZkmsmContext *empty = NULL;
    rc = zkmsm_context_new(curve, NULL, 0, ZKMSM_COMPRESSED, 1, 1, &empty);
    CHECK(rc == ZKMSM_OK && zkmsm_context_len(empty) == 0, "empty context: %d %s", rc, err());
    rc = zkmsm_msm(empty, NULL, 0, out, sizeof out);
    CHECK(rc == ZKMSM_OK, "empty msm: %d %s", rc, err());
    zkmsm_context_free(empty);
    zkmsm_context_free(NULL);

    zkmsm_context_free(ctx);
    free(points);
    free(scalars);
    printf("zkmsm %s C ABI: %d passed, %d failed\n", zkmsm_version(), checks - failures, failures);
    return failures == 0 ? 0 : 1;
}
