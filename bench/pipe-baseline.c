/*
 * The baseline for Taikai's driver overhead: a minimal USI client that starts an engine on two
 * pipes, selects the variant, then only writes "position ... / go ..." and reads up to "bestmove",
 * timing each round trip with CLOCK_MONOTONIC.
 *
 * Usage: pipe-baseline ENGINE VARIANT SFEN GO MOVES
 * Prints one round-trip time in nanoseconds per line. With SFEN "-", the positions come from standard
 * input, one whole "position ..." command per line, used in turn (and again from the first) MOVES times.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static void send(int fd, const char *text) {
    size_t left = strlen(text);
    while (left > 0) {
        ssize_t n = write(fd, text, left);
        if (n <= 0) { perror("write"); exit(1); }
        text += n;
        left -= (size_t) n;
    }
}

static void await(FILE *in, const char *prefix) {
    char line[65536];
    while (fgets(line, sizeof line, in)) {
        if (strncmp(line, prefix, strlen(prefix)) == 0) return;
    }
    fprintf(stderr, "engine closed its output before '%s'\n", prefix);
    exit(1);
}

static long long now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (long long) t.tv_sec * 1000000000LL + t.tv_nsec;
}

int main(int argc, char **argv) {
    if (argc != 6) {
        fprintf(stderr, "usage: %s ENGINE VARIANT SFEN GO MOVES\n", argv[0]);
        return 2;
    }
    int to[2], from[2];
    if (pipe(to) || pipe(from)) { perror("pipe"); return 1; }
    pid_t pid = fork();
    if (pid == 0) {
        dup2(to[0], 0);
        dup2(from[1], 1);
        close(to[0]); close(to[1]); close(from[0]); close(from[1]);
        execlp(argv[1], argv[1], (char *) NULL);
        _exit(127);
    }
    close(to[0]);
    close(from[1]);
    FILE *in = fdopen(from[0], "r");
    int out = to[1];
    char command[16384];

    send(out, "usi\n");
    await(in, "usiok");
    snprintf(command, sizeof command, "setoption name UCI_Variant value %s\nisready\n", argv[2]);
    send(out, command);
    await(in, "readyok");
    int moves = atoi(argv[5]);
    int from_stdin = strcmp(argv[3], "-") == 0;
    char **positions = NULL;
    size_t count = 0, capacity = 0;
    if (from_stdin) {
        char line[8192];
        while (fgets(line, sizeof line, stdin)) {
            line[strcspn(line, "\n")] = 0;
            if (count == capacity) {
                capacity = capacity ? capacity * 2 : 1024;
                positions = realloc(positions, capacity * sizeof *positions);
            }
            positions[count++] = strdup(line);
        }
        if (count == 0) { fprintf(stderr, "no positions on standard input\n"); return 2; }
    } else {
        snprintf(command, sizeof command, "position sfen %s\n%s\n", argv[3], argv[4]);
    }
    for (int i = 0; i < moves; i++) {
        if (from_stdin) {
            snprintf(command, sizeof command, "%s\n%s\n", positions[(size_t) i % count], argv[4]);
        }
        long long start = now_ns();
        send(out, command);
        await(in, "bestmove");
        printf("%lld\n", now_ns() - start);
    }
    send(out, "quit\n");
    waitpid(pid, NULL, 0);
    return 0;
}
