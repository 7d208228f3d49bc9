/*
 * Fleche's stand-in for the CPU feature detection of a native image on x86-64 (part of liblibchelper.a). The
 * image asks at start which CPU features the machine has, fills the CPUFeatures struct (its fields are the
 * builder's names, include/amd64cpufeatures.h, generated), and refuses to run when a feature it was compiled for
 * (-march) is missing. Written for Fleche from the Intel and AMD manuals' CPUID bit assignments.
 *
 * AVX and AVX-512 features count only when the operating system saves their registers (XGETBV), as the JVM's
 * detection does. The JVM's vendor-specific refinements (e.g. which Intel models may use TSC as a clock source)
 * are not made: TSCINV is the invariant-TSC bit itself.
 */
#include <cpuid.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "amd64cpufeatures.h"

typedef struct {
    uint32_t a, b, c, d;
} regs;

static regs cpuid(uint32_t leaf, uint32_t subleaf) {
    regs r = {0, 0, 0, 0};
    __cpuid_count(leaf, subleaf, r.a, r.b, r.c, r.d);
    return r;
}

static int bit(uint32_t value, int n) {
    return (value >> n) & 1;
}

static uint64_t xgetbv0(void) {
    uint32_t eax, edx;
    __asm__ volatile("xgetbv" : "=a"(eax), "=d"(edx) : "c"(0));
    return ((uint64_t) edx << 32) | eax;
}

void determineCPUFeatures(CPUFeatures *f) {
    memset(f, 0, sizeof *f);
    uint32_t max_leaf = cpuid(0, 0).a;
    uint32_t max_ext = cpuid(0x80000000, 0).a;
    regs l1 = max_leaf >= 1 ? cpuid(1, 0) : (regs) {0, 0, 0, 0};
    regs l7 = max_leaf >= 7 ? cpuid(7, 0) : (regs) {0, 0, 0, 0};
    regs l71 = max_leaf >= 7 && l7.a >= 1 ? cpuid(7, 1) : (regs) {0, 0, 0, 0};
    regs e1 = max_ext >= 0x80000001 ? cpuid(0x80000001, 0) : (regs) {0, 0, 0, 0};
    regs e7 = max_ext >= 0x80000007 ? cpuid(0x80000007, 0) : (regs) {0, 0, 0, 0};

    /* Register state the OS saves: SSE+AVX (XCR0 bits 1-2), AVX-512 (5-7), APX (19). */
    uint64_t xcr0 = bit(l1.c, 27) ? xgetbv0() : 0; /* OSXSAVE */
    int os_avx = (xcr0 & 0x6) == 0x6;
    int os_avx512 = os_avx && (xcr0 & 0xe0) == 0xe0;
    int os_apx = bit(xcr0 >> 19, 0);

    f->fTSC = bit(l1.d, 4);
    f->fCX8 = bit(l1.d, 8);
    f->fCMOV = bit(l1.d, 15);
    f->fFLUSH = bit(l1.d, 19);
    f->fMMX = bit(l1.d, 23);
    f->fFXSR = bit(l1.d, 24);
    f->fSSE = bit(l1.d, 25);
    f->fSSE2 = bit(l1.d, 26);
    f->fHT = bit(l1.d, 28);

    f->fSSE3 = bit(l1.c, 0);
    f->fCLMUL = bit(l1.c, 1);
    f->fSSSE3 = bit(l1.c, 9);
    f->fSSE4_1 = bit(l1.c, 19);
    f->fSSE4_2 = bit(l1.c, 20);
    f->fPOPCNT = bit(l1.c, 23);
    f->fAES = bit(l1.c, 25);
    f->fHV = bit(l1.c, 31);
    if (os_avx) {
        f->fFMA = bit(l1.c, 12);
        f->fAVX = bit(l1.c, 28);
        f->fF16C = bit(l1.c, 29);
        f->fVZEROUPPER = f->fAVX;
    }

    f->fBMI1 = bit(l7.b, 3);
    f->fBMI2 = bit(l7.b, 8);
    f->fERMS = bit(l7.b, 9);
    f->fRTM = bit(l7.b, 11);
    f->fADX = bit(l7.b, 19);
    f->fFLUSHOPT = bit(l7.b, 23);
    f->fCLWB = bit(l7.b, 24);
    f->fSHA = bit(l7.b, 29);
    f->fPKU = bit(l7.c, 3);
    f->fOSPKE = bit(l7.c, 4);
    f->fCET_SS = bit(l7.c, 7);
    f->fGFNI = bit(l7.c, 8);
    f->fRDPID = bit(l7.c, 22);
    f->fFSRM = bit(l7.d, 4);
    f->fSERIALIZE = bit(l7.d, 14);
    f->fCET_IBT = bit(l7.d, 20);
    if (os_avx) {
        f->fAVX2 = bit(l7.b, 5);
        f->fAVX_IFMA = bit(l71.a, 23);
        f->fSHA512 = bit(l71.a, 0) && f->fAVX2;
    }
    if (os_avx512) {
        f->fAVX512F = bit(l7.b, 16);
        f->fAVX512DQ = bit(l7.b, 17);
        f->fAVX512_IFMA = bit(l7.b, 21);
        f->fAVX512PF = bit(l7.b, 26);
        f->fAVX512ER = bit(l7.b, 27);
        f->fAVX512CD = bit(l7.b, 28);
        f->fAVX512BW = bit(l7.b, 30);
        f->fAVX512VL = bit(l7.b, 31);
        f->fAVX512_VBMI = bit(l7.c, 1);
        f->fAVX512_VBMI2 = bit(l7.c, 6);
        f->fAVX512_VAES = bit(l7.c, 9);
        f->fAVX512_VPCLMULQDQ = bit(l7.c, 10);
        f->fAVX512_VNNI = bit(l7.c, 11);
        f->fAVX512_BITALG = bit(l7.c, 12);
        f->fAVX512_VPOPCNTDQ = bit(l7.c, 14);
        f->fAVX512_FP16 = bit(l7.d, 23);
        if (bit(l71.d, 19) && max_leaf >= 0x24) { /* AVX10: its version in CPUID.24H:EBX[7:0] */
            uint32_t version = cpuid(0x24, 0).b & 0xff;
            f->fAVX10_1 = version >= 1;
            f->fAVX10_2 = version >= 2;
        }
    }
    f->fAPX_F = bit(l71.d, 21) && os_apx;

    f->fLZCNT = bit(e1.c, 5);
    f->fSSE4A = bit(e1.c, 6);
    f->fAMD_3DNOW_PREFETCH = bit(e1.c, 8);
    f->fRDTSCP = bit(e1.d, 27);
    f->fTSCINV_BIT = bit(e7.d, 8);
    f->fTSCINV = f->fTSCINV_BIT;
}

/*
 * 0 when this machine has every feature the image was built for, else 1. The mask is the CPUFeatures struct
 * of the build, bitwise negated (a required feature's byte is ~1, every other byte ~0), padded with ~0 to
 * whole 64-bit words: a feature byte OR its mask byte must be all ones.
 */
int checkCPUFeatures(const unsigned char *buildtime_mask) {
    size_t size = (sizeof(CPUFeatures) + 7) / 8 * 8;
    unsigned char features[(sizeof(CPUFeatures) + 7) / 8 * 8];
    memset(features, 0, sizeof features);
    determineCPUFeatures((CPUFeatures *) features);
    for (size_t i = 0; i < size; i++) {
        if ((unsigned char) (features[i] | buildtime_mask[i]) != 0xff) {
            return 1;
        }
    }
    return 0;
}

int checkCPUFeaturesOrExit(const unsigned char *buildtime_mask, const char *error_message) {
    int result = checkCPUFeatures(buildtime_mask);
    if (result != 0) {
        fprintf(stderr, "%s\n", error_message);
        exit(1);
    }
    return result;
}
