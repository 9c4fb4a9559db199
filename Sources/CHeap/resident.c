#include "resident.h"
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

int64_t schemalab_status_kib(const char *name) {
    char buffer[16384];
    int fd = open("/proc/self/status", O_RDONLY | O_CLOEXEC);
    if (fd < 0) return -1;
    size_t used = 0;
    for (;;) {
        ssize_t n = read(fd, buffer + used, sizeof(buffer) - 1 - used);
        if (n <= 0) break;
        used += (size_t)n;
        if (used == sizeof(buffer) - 1) break;
    }
    close(fd);
    buffer[used] = '\0';
    size_t length = strlen(name);
    for (char *line = buffer; line && *line; ) {
        if (strncmp(line, name, length) == 0) {
            const char *p = line + length;
            while (*p == ' ' || *p == '\t') p++;
            if (*p < '0' || *p > '9') return -1;
            int64_t value = 0;
            while (*p >= '0' && *p <= '9') value = value * 10 + (*p++ - '0');
            return value;
        }
        char *next = strchr(line, '\n');
        line = next ? next + 1 : NULL;
    }
    return -1;
}

int schemalab_reset_peak_resident(void) {
    int fd = open("/proc/self/clear_refs", O_WRONLY | O_CLOEXEC);
    if (fd < 0) return 0;
    ssize_t n = write(fd, "5", 1);
    close(fd);
    return n == 1;
}
