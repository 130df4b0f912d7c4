// Times cblas_sgemm of a BLAS library loaded at run time on bert-base's product shapes (T×768 by
// 768×768, 768×3072, 3072×768, the weights transposed as the model reads them), best of 7, to
// compare BLAS libraries and OpenBLAS core types (bench/README.md, "Which BLAS, which kernels").
//   gcc -O2 bench/blas_sgemm_compare.c -o /tmp/sgemm -ldl
//   OPENBLAS_NUM_THREADS=1 OPENBLAS_CORETYPE=Haswell /tmp/sgemm /usr/lib/x86_64-linux-gnu/openblas-pthread/libopenblas.so.0 128
//   BLIS_NUM_THREADS=1 /tmp/sgemm /usr/lib/x86_64-linux-gnu/blis-pthread/libblis.so.4 128
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

typedef void (*sgemm_t)(int, int, int, int, int, int, float, const float*, int, const float*, int, float, float*, int);
enum { kRowMajor = 101, kNoTrans = 111, kTrans = 112 };  /* CBLAS enum values */

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

int main(int argc, char** argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: %s LIBRARY.so TOKENS\n", argv[0]);
        return 2;
    }
    void* library = dlopen(argv[1], RTLD_NOW);
    if (!library) { puts(dlerror()); return 1; }
    sgemm_t sgemm = (sgemm_t)dlsym(library, "cblas_sgemm");
    if (!sgemm) { puts("no cblas_sgemm"); return 1; }
    const char* (*corename)(void) = (const char* (*)(void))dlsym(library, "openblas_get_corename");
    const int T = atoi(argv[2]);
    const int shapes[3][2] = {{768, 768}, {768, 3072}, {3072, 768}};  /* in, out */
    float* A = malloc(sizeof(float) * 512 * 3072);
    float* B = malloc(sizeof(float) * 3072 * 3072);
    float* C = malloc(sizeof(float) * 512 * 3072);
    for (int i = 0; i < 512 * 3072; i++) A[i] = (i % 7) * 0.1f;
    for (int i = 0; i < 3072 * 3072; i++) B[i] = (i % 5) * 0.01f;
    double flops = 0, best = 1e9;
    for (int round = 0; round < 7; round++) {
        const double start = now();
        flops = 0;
        for (int rep = 0; rep < 4; rep++)
            for (int s = 0; s < 3; s++) {
                const int k = shapes[s][0], n = shapes[s][1];
                sgemm(kRowMajor, kNoTrans, kTrans, T, n, k, 1.f, A, k, B, k, 0.f, C, n);
                flops += 2.0 * T * n * k;
            }
        const double seconds = now() - start;
        if (seconds < best) best = seconds;
    }
    printf("%s core=%s T=%d best %.2f ms  %.1f GFLOP/s\n", argv[1], corename ? corename() : "-", T, best * 1e3,
           flops / best * 1e-9);
    return 0;
}
