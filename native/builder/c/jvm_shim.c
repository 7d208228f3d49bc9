/*
 * Fleche's stand-in for the JVM_* layer under the JDK's native libraries in a native image. A GraalVM
 * distribution links the JDK's libraries statically together with its own small libjvm.a; Maven Central has
 * neither, so Fleche's native build links the build JDK's own shared libraries (libjava.so, libnio.so, ...)
 * and gives them, instead of HotSpot, the few JVM_* functions they call in an image. Written for Fleche.
 *
 * Built twice by native/builder/make-builder.sh: into libjvm.a (linked into every image, with the
 * JNI_OnLoad_<lib> bridges below) and into the stub libjvm.so that the JDK libraries' NEEDED entry finds at run
 * time, next to generated stubs for every other JVM_* function they name: those end the process with a message
 * naming the function (they are HotSpot's: class loading, stack walking, ... which a native image does itself).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include <jni.h>

/* Called by the image before it uses a JDK library (GraalVM's hook to make sure the JVM layer is linked). */
void initialize(void) {
}

/* ---------------------------------------------------------------- the JVM_* functions the JDK's libraries call */

JNIEXPORT jint JNICALL JVM_ActiveProcessorCount(void) {
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) == 0) {
        return CPU_COUNT(&set);
    }
    long online = sysconf(_SC_NPROCESSORS_ONLN);
    return online > 0 ? (jint) online : 1;
}

JNIEXPORT jlong JNICALL JVM_CurrentTimeMillis(JNIEnv *env, jclass ignored) {
    (void) env;
    (void) ignored;
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    return (jlong) now.tv_sec * 1000 + now.tv_nsec / 1000000;
}

JNIEXPORT jlong JNICALL JVM_NanoTime(JNIEnv *env, jclass ignored) {
    (void) env;
    (void) ignored;
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (jlong) now.tv_sec * 1000000000 + now.tv_nsec;
}

/* Nanoseconds of the wall clock since offset_secs (epoch seconds), or -1 when that does not fit (as HotSpot). */
JNIEXPORT jlong JNICALL JVM_GetNanoTimeAdjustment(JNIEnv *env, jclass ignored, jlong offset_secs) {
    (void) env;
    (void) ignored;
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    jlong seconds = (jlong) now.tv_sec - offset_secs;
    if (seconds >= 4294967295LL || seconds <= -4294967295LL) {
        return -1;
    }
    return seconds * 1000000000LL + now.tv_nsec;
}

JNIEXPORT void JNICALL JVM_Halt(jint code) {
    exit(code);
}

JNIEXPORT void JNICALL JVM_BeforeHalt(void) {
}

JNIEXPORT void JNICALL JVM_GC(void) {
}

JNIEXPORT jboolean JNICALL JVM_IsSupportedJNIVersion(jint version) {
    return version == JNI_VERSION_1_1 || version == JNI_VERSION_1_2 || version == JNI_VERSION_1_4
        || version == JNI_VERSION_1_6 || version == JNI_VERSION_1_8 || version == JNI_VERSION_9
        || version == JNI_VERSION_10 || version == JNI_VERSION_19 || version == JNI_VERSION_20
        || version == JNI_VERSION_21 || version == JNI_VERSION_24;
}

JNIEXPORT jboolean JNICALL JVM_IsContainerized(void) {
    return JNI_FALSE;
}

JNIEXPORT jboolean JNICALL JVM_IsUseContainerSupport(void) {
    return JNI_FALSE;
}

JNIEXPORT void *JNICALL JVM_FindLibraryEntry(void *handle, const char *name) {
    return dlsym(handle, name);
}

JNIEXPORT char *JNICALL JVM_NativePath(char *path) {
    return path;
}

JNIEXPORT void *JNICALL JVM_GetManagement(jint version) {
    (void) version;
    return NULL; /* no HotSpot management interface: callers treat NULL as "not available" */
}

JNIEXPORT void *JNICALL JVM_RawMonitorCreate(void) {
    pthread_mutex_t *mutex = malloc(sizeof *mutex);
    if (mutex != NULL) {
        pthread_mutex_init(mutex, NULL);
    }
    return mutex;
}

JNIEXPORT void JNICALL JVM_RawMonitorDestroy(void *monitor) {
    pthread_mutex_destroy(monitor);
    free(monitor);
}

JNIEXPORT jint JNICALL JVM_RawMonitorEnter(void *monitor) {
    return pthread_mutex_lock(monitor) == 0 ? 0 : -1;
}

JNIEXPORT void JNICALL JVM_RawMonitorExit(void *monitor) {
    pthread_mutex_unlock(monitor);
}

JNIEXPORT int jio_vsnprintf(char *buffer, size_t size, const char *format, va_list args) {
    if ((intptr_t) size <= 0) {
        return -1;
    }
    int written = vsnprintf(buffer, size, format, args);
    return written >= 0 && (size_t) written < size ? written : -1; /* HotSpot: -1 when truncated */
}

JNIEXPORT int jio_snprintf(char *buffer, size_t size, const char *format, ...) {
    va_list args;
    va_start(args, format);
    int written = jio_vsnprintf(buffer, size, format, args);
    va_end(args);
    return written;
}

JNIEXPORT int jio_vfprintf(FILE *file, const char *format, va_list args) {
    return vfprintf(file, format, args);
}

JNIEXPORT int jio_fprintf(FILE *file, const char *format, ...) {
    va_list args;
    va_start(args, format);
    int written = vfprintf(file, format, args);
    va_end(args);
    return written;
}

/*
 * Exits with a message naming a HotSpot-only function a JDK library called (the generated stubs of the stub
 * libjvm.so call this): the native image does that work itself, so reaching one is a gap to report, not a state
 * to continue from.
 */
JNIEXPORT void fleche_hotspot_only(const char *name) {
    fprintf(stderr, "native image: the JDK library called %s, a HotSpot function this image does not have "
                    "(Fleche's stub libjvm; see native/README.md)\n", name);
    abort();
}
