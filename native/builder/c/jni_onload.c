/*
 * JNI_OnLoad_<library> for the JDK libraries an image links. A native image treats the JDK's libraries as
 * built in (linked statically in a GraalVM distribution, where each defines JNI_OnLoad_<library>) and calls
 * JNI_OnLoad_<library> when Java code loads one. Fleche's build links the JDK's shared libraries instead, whose
 * initializer is plain JNI_OnLoad: each bridge here calls that of its library and answers JNI 1.8, the least
 * version the JNI specification asks of a built-in library (the JDK's own answer, 1.2, is refused). Written for
 * Fleche; part of libjvm.a (native/builder/make-builder.sh).
 */
#include <dlfcn.h>
#include <stdio.h>

#include <jni.h>

typedef jint (*on_load_function)(JavaVM *, void *);

static jint bridge(const char *file, JavaVM *vm, void *reserved) {
    void *library = dlopen(file, RTLD_LAZY | RTLD_GLOBAL);
    if (library == NULL) {
        fprintf(stderr, "native image: cannot open %s: %s\n", file, dlerror());
        return JNI_ERR;
    }
    on_load_function on_load = (on_load_function) dlsym(library, "JNI_OnLoad");
    if (on_load != NULL && on_load(vm, reserved) == JNI_ERR) {
        return JNI_ERR;
    }
    return JNI_VERSION_1_8;
}

#define BRIDGE(name) \
    JNIEXPORT jint JNICALL JNI_OnLoad_##name(JavaVM *vm, void *reserved) { \
        return bridge("lib" #name ".so", vm, reserved); \
    }

BRIDGE(java)
BRIDGE(nio)
BRIDGE(net)
BRIDGE(zip)
BRIDGE(extnet)
BRIDGE(prefs)
BRIDGE(management_ext)
BRIDGE(attach)
BRIDGE(jaas)
BRIDGE(j2pkcs11)
BRIDGE(sctp)
BRIDGE(management)
