/*
 * Fleche's stand-in for a native image's container support (GraalVM's libsvm_container, built from HotSpot's
 * cgroup code, is shipped only in GraalVM distributions). The image asks it for the memory limit and CPU quota
 * of its cgroup, so that its heap is sized from a pod's memory limit and its processor count from the CPU
 * quota, as the JVM does with -XX:+UseContainerSupport. Written for Fleche (libsvm_container.a).
 *
 * What it reads: the process's own cgroup (from /proc/self/cgroup, mapped to a path under its mount point from
 * /proc/self/mountinfo) in cgroup v2 (memory.max, memory.swap.max, memory.low, memory.current, memory.peak,
 * memory.stat, cpu.max) or v1 (memory.limit_in_bytes, memory.memsw.limit_in_bytes, memory.soft_limit_in_bytes,
 * memory.usage_in_bytes, memory.max_usage_in_bytes, memory.stat, cpu.cfs_quota_us, cpu.cfs_period_us).
 * What it does not do (HotSpot does): look at the limits of parent cgroups, CPU shares, re-reading the
 * mounts later. "Containerized" here means: a memory limit or a CPU quota is set on the process's cgroup.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define LIBRARY_VERSION 240100
#define SUCCESS_IS_NOT_CONTAINERIZED 0
#define SUCCESS_IS_CONTAINERIZED 1
#define ERROR_LIBCONTAINER_TOO_OLD 2
#define ERROR_LIBCONTAINER_TOO_NEW 3
#define UNLIMITED (-1L)
#define NOT_AVAILABLE (-2L)

static int cgroup_v2;
static char memory_dir[4096];
static char cpu_dir[4096];

/* The directory of this process's cgroup for a controller, mapped under the controller's mount point. */
static int find_dir(const char *controller, char *out, size_t size) {
    char line[4096];
    char cgroup_path[4096] = "";
    FILE *file = fopen("/proc/self/cgroup", "r");
    if (file == NULL) {
        return -1;
    }
    while (fgets(line, sizeof line, file) != NULL) {
        line[strcspn(line, "\n")] = '\0';
        char *controllers = strchr(line, ':');
        char *path = controllers == NULL ? NULL : strchr(controllers + 1, ':');
        if (path == NULL) {
            continue;
        }
        *path++ = '\0';
        controllers++;
        int match = cgroup_v2 ? strcmp(line, "0") == 0 && *controllers == '\0' : 0;
        if (!cgroup_v2) {
            for (char *name = strtok(controllers, ","); name != NULL; name = strtok(NULL, ",")) {
                match |= strcmp(name, controller) == 0;
            }
        }
        if (match) {
            snprintf(cgroup_path, sizeof cgroup_path, "%s", path);
            break;
        }
    }
    fclose(file);
    if (cgroup_path[0] == '\0') {
        return -1;
    }
    file = fopen("/proc/self/mountinfo", "r");
    if (file == NULL) {
        return -1;
    }
    int found = -1;
    while (found != 0 && fgets(line, sizeof line, file) != NULL) {
        /* id parent major:minor root mount-point options [optional...] - fstype source super-options */
        char root[4096], mount_point[4096], fstype[64], super_options[1024];
        char *dash = strstr(line, " - ");
        if (dash == NULL || sscanf(line, "%*s %*s %*s %4095s %4095s", root, mount_point) != 2
            || sscanf(dash + 3, "%63s %*s %1023s", fstype, super_options) != 2) {
            continue;
        }
        if (cgroup_v2 ? strcmp(fstype, "cgroup2") != 0 : strcmp(fstype, "cgroup") != 0) {
            continue;
        }
        if (!cgroup_v2) {
            int has = 0;
            for (char *name = strtok(super_options, ","); name != NULL; name = strtok(NULL, ",")) {
                has |= strcmp(name, controller) == 0;
            }
            if (!has) {
                continue;
            }
        }
        const char *rest;
        size_t root_length = strlen(root);
        if (strcmp(root, "/") == 0) {
            rest = cgroup_path;
        } else if (strncmp(cgroup_path, root, root_length) == 0
                   && (cgroup_path[root_length] == '/' || cgroup_path[root_length] == '\0')) {
            rest = cgroup_path + root_length;
        } else {
            rest = ""; /* a container's own cgroup mounted as the root of its view */
        }
        snprintf(out, size, "%s%s", mount_point, strcmp(rest, "/") == 0 ? "" : rest);
        found = 0;
    }
    fclose(file);
    return found;
}

/* The first number in DIR/NAME; "max" is UNLIMITED; NOT_AVAILABLE when there is no such file. */
static long read_number(const char *dir, const char *name) {
    char path[4200];
    char text[128];
    if (dir[0] == '\0') {
        return NOT_AVAILABLE;
    }
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *file = fopen(path, "r");
    if (file == NULL) {
        return NOT_AVAILABLE;
    }
    char *read = fgets(text, sizeof text, file);
    fclose(file);
    if (read == NULL) {
        return NOT_AVAILABLE;
    }
    if (strncmp(text, "max", 3) == 0) {
        return UNLIMITED;
    }
    return strtol(text, NULL, 10);
}

/* The value of KEY in DIR/memory.stat, or NOT_AVAILABLE. */
static long read_stat(const char *key) {
    char path[4200];
    char line[256];
    snprintf(path, sizeof path, "%s/memory.stat", memory_dir);
    FILE *file = fopen(path, "r");
    if (file == NULL) {
        return NOT_AVAILABLE;
    }
    long value = NOT_AVAILABLE;
    size_t key_length = strlen(key);
    while (fgets(line, sizeof line, file) != NULL) {
        if (strncmp(line, key, key_length) == 0 && line[key_length] == ' ') {
            value = strtol(line + key_length + 1, NULL, 10);
            break;
        }
    }
    fclose(file);
    return value;
}

unsigned long svm_container_physical_memory(void) {
    return (unsigned long) sysconf(_SC_PHYS_PAGES) * (unsigned long) sysconf(_SC_PAGESIZE);
}

/* A v1 "no limit" is a huge number (a page-rounded LONG_MAX): anything at or above the machine's memory. */
static long limit(long value) {
    if (value == NOT_AVAILABLE || value == UNLIMITED) {
        return value;
    }
    return (unsigned long) value >= svm_container_physical_memory() ? UNLIMITED : value;
}

long svm_container_memory_limit_in_bytes(void) {
    return limit(read_number(memory_dir, cgroup_v2 ? "memory.max" : "memory.limit_in_bytes"));
}

long svm_container_memory_and_swap_limit_in_bytes(void) {
    if (!cgroup_v2) {
        return limit(read_number(memory_dir, "memory.memsw.limit_in_bytes"));
    }
    long memory = svm_container_memory_limit_in_bytes();
    long swap = read_number(memory_dir, "memory.swap.max");
    if (memory < 0 || swap == UNLIMITED) {
        return memory < 0 ? memory : UNLIMITED;
    }
    return swap == NOT_AVAILABLE ? memory : memory + swap;
}

long svm_container_memory_soft_limit_in_bytes(void) {
    return limit(read_number(memory_dir, cgroup_v2 ? "memory.low" : "memory.soft_limit_in_bytes"));
}

long svm_container_memory_usage_in_bytes(void) {
    return read_number(memory_dir, cgroup_v2 ? "memory.current" : "memory.usage_in_bytes");
}

long svm_container_memory_max_usage_in_bytes(void) {
    return read_number(memory_dir, cgroup_v2 ? "memory.peak" : "memory.max_usage_in_bytes");
}

long svm_container_rss_usage_in_bytes(void) {
    return read_stat(cgroup_v2 ? "anon" : "rss");
}

long svm_container_cache_usage_in_bytes(void) {
    return read_stat(cgroup_v2 ? "file" : "cache");
}

/* The CPUs this process may run on, further limited by the cgroup's CPU quota (rounded up). */
int svm_container_active_processor_count(void) {
    cpu_set_t set;
    int cpus = sched_getaffinity(0, sizeof set, &set) == 0 ? CPU_COUNT(&set) : (int) sysconf(_SC_NPROCESSORS_ONLN);
    long quota = NOT_AVAILABLE;
    long period = NOT_AVAILABLE;
    if (cgroup_v2) {
        char path[4200];
        snprintf(path, sizeof path, "%s/cpu.max", cpu_dir);
        FILE *file = cpu_dir[0] == '\0' ? NULL : fopen(path, "r");
        if (file != NULL) {
            char text[64];
            if (fscanf(file, "%63s %ld", text, &period) == 2 && strcmp(text, "max") != 0) {
                quota = strtol(text, NULL, 10);
            }
            fclose(file);
        }
    } else {
        quota = read_number(cpu_dir, "cpu.cfs_quota_us");
        period = read_number(cpu_dir, "cpu.cfs_period_us");
    }
    if (quota > 0 && period > 0) {
        int limit_cpus = (int) ((quota + period - 1) / period);
        if (limit_cpus < cpus) {
            cpus = limit_cpus;
        }
    }
    return cpus < 1 ? 1 : cpus;
}

int svm_container_initialize(int version) {
    if (version > LIBRARY_VERSION) {
        return ERROR_LIBCONTAINER_TOO_OLD;
    }
    if (version < LIBRARY_VERSION) {
        return ERROR_LIBCONTAINER_TOO_NEW;
    }
    cgroup_v2 = access("/sys/fs/cgroup/cgroup.controllers", F_OK) == 0;
    if (find_dir("memory", memory_dir, sizeof memory_dir) != 0) {
        memory_dir[0] = '\0';
    }
    if (find_dir("cpu", cpu_dir, sizeof cpu_dir) != 0) {
        cpu_dir[0] = '\0';
    }
    int cpus_online = (int) sysconf(_SC_NPROCESSORS_ONLN);
    if (svm_container_memory_limit_in_bytes() > 0 || svm_container_active_processor_count() < cpus_online) {
        return SUCCESS_IS_CONTAINERIZED;
    }
    return SUCCESS_IS_NOT_CONTAINERIZED;
}
