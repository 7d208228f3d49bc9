/*
 * Fleche's stand-in for the small C helper library that a native image links (GraalVM names it libchelper and
 * ships it only in its distributions). Written for Fleche from what the native-image builder's Java side expects
 * of each function (its @CFunction declarations and their callers); see native/README.md for what each one does
 * and does not do compared with GraalVM's.
 *
 * Built into liblibchelper.a (with cpu_amd64.c) by native/builder/make-builder.sh.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <locale.h>
#include <semaphore.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "svm_locale.h"

extern char **environ;

/* ---------------------------------------------------------------- process and thread */

char **getEnviron(void) {
    return environ;
}

int getThreadId(void) {
    return (int) syscall(SYS_gettid);
}

/*
 * The user-mode CPU time of thread `tid` of this process in nanoseconds, from /proc (field 14 of
 * /proc/self/task/TID/stat, in clock ticks), or -1 when it cannot be read.
 */
long getThreadUserTimeSlow(int tid) {
    char path[64];
    char line[2048];
    snprintf(path, sizeof path, "/proc/self/task/%d/stat", tid);
    FILE *file = fopen(path, "r");
    if (file == NULL) {
        return -1;
    }
    size_t length = fread(line, 1, sizeof line - 1, file);
    fclose(file);
    line[length] = '\0';
    /* The command name (field 2) is in parentheses and may contain spaces: count fields after the last ')'. */
    char *at = strrchr(line, ')');
    if (at == NULL) {
        return -1;
    }
    unsigned long ticks = 0;
    /* after ')': state(3) ppid pgrp session tty_nr tpgid flags minflt cminflt majflt cmajflt utime(14) */
    if (sscanf(at + 1, " %*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %lu", &ticks) != 1) {
        return -1;
    }
    long hz = sysconf(_SC_CLK_TCK);
    return hz > 0 ? (long) (ticks * (1000000000UL / (unsigned long) hz)) : -1;
}

void *mremapP(void *old_address, size_t old_size, size_t new_size, int flags, void *new_address) {
    return mremap(old_address, old_size, new_size, flags, new_address);
}

/* open/openat with a fixed argument list (the builder cannot call C variadics). */
int openSII(const char *pathname, int flags, int mode) {
    return open(pathname, flags, mode);
}

int openatISII(int dirfd, const char *pathname, int flags, int mode) {
    return openat(dirfd, pathname, flags, mode);
}

/* fprintf with one string and one int argument (the fatal-error message). */
int fprintfSD(FILE *stream, const char *format, const char *arg0, int arg1) {
    return fprintf(stream, format, arg0, arg1);
}

void codeSynchronization_clearCache(long code_start, long code_size) {
    __builtin___clear_cache((char *) code_start, (char *) (code_start + code_size));
}

/* ---------------------------------------------------------------- time zone */

/* A copy of `id` without a leading ':' and, when it is a path into a zoneinfo directory, of the part after it. */
static char *zone_id(const char *id) {
    if (id == NULL || *id == '\0') {
        return NULL;
    }
    if (*id == ':') {
        id++;
    }
    const char *zoneinfo = strstr(id, "zoneinfo/");
    if (zoneinfo != NULL) {
        id = zoneinfo + strlen("zoneinfo/");
    } else if (*id == '/') {
        return NULL; /* a file outside a zoneinfo tree: no id to give */
    }
    if (strncmp(id, "posix/", 6) == 0) {
        id += 6;
    } else if (strncmp(id, "right/", 6) == 0) {
        id += 6;
    }
    return *id == '\0' ? NULL : strdup(id);
}

/*
 * The platform's time-zone id, newly allocated (the caller frees it), or NULL (Java then uses GMT):
 * $TZ, else the first line of /etc/timezone, else the zoneinfo path /etc/localtime links to. The mappings
 * argument is for Windows and not used here.
 */
char *SVM_FindJavaTZmd(const char *tz_mappings, int length) {
    (void) tz_mappings;
    (void) length;
    char *id = zone_id(getenv("TZ"));
    if (id != NULL) {
        return id;
    }
    FILE *file = fopen("/etc/timezone", "r");
    if (file != NULL) {
        char line[256];
        char *read = fgets(line, sizeof line, file);
        fclose(file);
        if (read != NULL) {
            line[strcspn(line, " \t\r\n")] = '\0';
            id = zone_id(line);
            if (id != NULL) {
                return id;
            }
        }
    }
    char target[PATH_MAX];
    ssize_t length_read = readlink("/etc/localtime", target, sizeof target - 1);
    if (length_read > 0) {
        target[length_read] = '\0';
        return zone_id(target);
    }
    return NULL;
}

/* ---------------------------------------------------------------- locale */

static svm_locale_props_t locale_props;

/* Splits a POSIX locale name (language[_COUNTRY][.codeset][@modifier]) into the given fields. */
static int parse_locale(const char *name, char **language, char **country, char **variant) {
    if (name == NULL || strcmp(name, "C") == 0 || strcmp(name, "POSIX") == 0 || strncmp(name, "C.", 2) == 0) {
        name = "en_US"; /* as the JDK: the C/POSIX locale is English (United States) */
    }
    char *copy = strdup(name);
    if (copy == NULL) {
        return -1;
    }
    char *modifier = strchr(copy, '@');
    if (modifier != NULL) {
        *modifier++ = '\0';
    }
    char *codeset = strchr(copy, '.');
    if (codeset != NULL) {
        *codeset = '\0';
    }
    char *under = strchr(copy, '_');
    if (under != NULL) {
        *under++ = '\0';
    }
    *language = strdup(copy);
    *country = under != NULL && *under != '\0' ? strdup(under) : NULL;
    /* A modifier the JDK turns into a script (latin, cyrillic, ...) or a variant: kept only as a variant here. */
    *variant = modifier != NULL && *modifier != '\0' ? strdup(modifier) : NULL;
    free(copy);
    return *language == NULL ? -1 : 0;
}

/*
 * Sets the process locale from the environment (setlocale(LC_ALL, "")) and records the display locale
 * (LC_MESSAGES) and the format locale (LC_CTYPE) for the Java side. No script is derived.
 */
int svm_initialize_locale(void) {
    setlocale(LC_ALL, "");
    if (parse_locale(setlocale(LC_MESSAGES, NULL), &locale_props.display_language, &locale_props.display_country,
                     &locale_props.display_variant) != 0
        || parse_locale(setlocale(LC_CTYPE, NULL), &locale_props.format_language, &locale_props.format_country,
                        &locale_props.format_variant) != 0) {
        return SVM_LOCALE_INITIALIZATION_OUT_OF_MEMORY;
    }
    locale_props.display_script = NULL;
    locale_props.format_script = NULL;
    return SVM_LOCALE_INITIALIZATION_SUCCEEDED;
}

svm_locale_props_t *svm_get_locale(void) {
    return &locale_props;
}

/* ---------------------------------------------------------------- Java signal handling (sun.misc.Signal) */

/*
 * A C signal handler counts each signal and posts a semaphore; the image's signal dispatcher thread waits on the
 * semaphore and asks for pending signals one at a time. One owner at a time (an isolate); 0..SIGNAL_LIMIT-1.
 */
#define SIGNAL_LIMIT 65

static volatile int signal_owned;
static volatile int signal_counts[SIGNAL_LIMIT];
static sem_t signal_semaphore;

static void signal_handler(int signal) {
    int saved = errno;
    if (signal > 0 && signal < SIGNAL_LIMIT) {
        __atomic_add_fetch(&signal_counts[signal], 1, __ATOMIC_SEQ_CST);
        sem_post(&signal_semaphore); /* async-signal-safe */
    }
    errno = saved;
}

int cSunMiscSignal_open(void) {
    int expected = 0;
    if (!__atomic_compare_exchange_n(&signal_owned, &expected, 1, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST)) {
        return 1; /* another isolate owns it */
    }
    for (int i = 0; i < SIGNAL_LIMIT; i++) {
        signal_counts[i] = 0;
    }
    if (sem_init(&signal_semaphore, 0, 0) != 0) {
        __atomic_store_n(&signal_owned, 0, __ATOMIC_SEQ_CST);
        return -1;
    }
    return 0;
}

int cSunMiscSignal_close(void) {
    int result = sem_destroy(&signal_semaphore);
    __atomic_store_n(&signal_owned, 0, __ATOMIC_SEQ_CST);
    return result;
}

int cSunMiscSignal_awaitSemaphore(void) {
    if (sem_wait(&signal_semaphore) != 0 && errno != EINTR) {
        return -1;
    }
    return 0; /* an interrupted wait is a spurious wake-up: the caller looks for pending signals and waits again */
}

int cSunMiscSignal_signalSemaphore(void) {
    return sem_post(&signal_semaphore);
}

int cSunMiscSignal_signalRangeCheck(int signal) {
    return signal > 0 && signal < SIGNAL_LIMIT;
}

int cSunMiscSignal_checkPendingSignal(void) {
    for (int signal = 1; signal < SIGNAL_LIMIT; signal++) {
        int count = __atomic_load_n(&signal_counts[signal], __ATOMIC_SEQ_CST);
        while (count > 0) {
            if (__atomic_compare_exchange_n(&signal_counts[signal], &count, count - 1, 0, __ATOMIC_SEQ_CST,
                                            __ATOMIC_SEQ_CST)) {
                return signal;
            }
        }
    }
    return -1;
}

void *cSunMiscSignal_signalHandlerFunctionPointer(void) {
    return (void *) signal_handler;
}
