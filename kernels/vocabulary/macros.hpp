#pragma once
// Function annotations for the vocabulary shared by host-only code (io/, the CLI) and device code, with
// no Kokkos header: under nvcc or hipcc a KEFF_INLINE_FUNCTION is callable on host and device (as
// KOKKOS_INLINE_FUNCTION would be); under a plain host compiler it is an ordinary inline function.

#if defined(__CUDACC__) || defined(__HIPCC__)
#define KEFF_INLINE_FUNCTION __host__ __device__ inline
#else
#define KEFF_INLINE_FUNCTION inline
#endif
