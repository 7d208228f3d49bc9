/*
 * The builder's progress-report helper (GraalVM ships it as lib/svm/builder/lib/libreporterchelper.so in its
 * distributions; the builder loads it from java.home): the terminal's width and the builder's peak RSS, for its
 * console output. Written for Fleche (native/builder/make-builder.sh).
 */
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <unistd.h>

#include <jni.h>

JNIEXPORT jint JNICALL Java_com_oracle_svm_hosted_ProgressReporterCHelper_getTerminalWindowColumns0(JNIEnv *env,
                                                                                                    jclass ignored) {
    (void) env;
    (void) ignored;
    struct winsize size;
    return ioctl(STDOUT_FILENO, TIOCGWINSZ, &size) == 0 && size.ws_col > 0 ? size.ws_col : -1;
}

JNIEXPORT jlong JNICALL Java_com_oracle_svm_hosted_ProgressReporterCHelper_getPeakRSS0(JNIEnv *env, jclass ignored) {
    (void) env;
    (void) ignored;
    struct rusage usage;
    return getrusage(RUSAGE_SELF, &usage) == 0 ? (jlong) usage.ru_maxrss * 1024 : -1; /* Linux: kilobytes */
}
