/*
 * The light engine: a USI engine for scale runs that costs next to no memory or CPU. It plays Minishogi
 * only (its UCI_Variant lists nothing else), a legal move chosen from the position it is given, after
 * sleeping a configured time, and it answers isready, stop and quit at once, also during that sleep.
 *
 *   light-engine [--think-ms MIN[-MAX]] [--seed N] [--name NAME] [--start-cpu-ms N] [--no-usiok]
 *   light-engine --perft DEPTH [SFEN]      counts legal move sequences (its own move generator's check)
 *
 * --think-ms: how long each go sleeps, drawn uniformly from MIN..MAX per move (default 0); never longer
 * than half of a movetime or of a byoyomi, nor a twentieth of its own main time plus half its byoyomi, so
 * that it plays by its clock. The move is drawn from the legal moves by a hash of the seed and the
 * position, so the same position gets the same move in every run. --start-cpu-ms: computes that long
 * (CPU time) before it reads its first command, as an engine that loads and sets up tables does
 * (Fairy-Stockfish 11.1 takes about 440 ms). --no-usiok: its handshake never ends, as a stuck engine's.
 *
 * The board is an array of 25 squares, index = rank * 5 + column: rank 0..4 is a..e, column 0..4 is
 * file 5..1 (as SFEN writes a rank). Pieces are signed: positive sente, negative gote.
 */
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

enum { EMPTY, PAWN, SILVER, GOLD, BISHOP, ROOK, KING, TOKIN, PSILVER, HORSE, DRAGON };
static const char LETTERS[] = " PSGBRK";

typedef struct {
    int sq[25];
    int hand[2][6]; /* [side][PAWN..ROOK] */
    int side;       /* 0 sente, 1 gote */
} Pos;

/* A move: from (0..24, or 25 + kind for a drop), to, promote. */
typedef struct {
    int from, to, promote;
} Move;

static int owner(int piece) { return piece > 0 ? 0 : 1; }
static int kind(int piece) { return piece > 0 ? piece : -piece; }
static int base(int k) { return k == TOKIN ? PAWN : k == PSILVER ? SILVER : k == HORSE ? BISHOP : k == DRAGON ? ROOK : k; }
static int promoted(int k) { return k == PAWN ? TOKIN : k == SILVER ? PSILVER : k == BISHOP ? HORSE : k == ROOK ? DRAGON : 0; }

static const int GOLD_STEPS[6][2] = {{-1, -1}, {-1, 0}, {-1, 1}, {0, -1}, {0, 1}, {1, 0}};
static const int SILVER_STEPS[5][2] = {{-1, -1}, {-1, 0}, {-1, 1}, {1, -1}, {1, 1}};
static const int KING_STEPS[8][2] = {{-1, -1}, {-1, 0}, {-1, 1}, {0, -1}, {0, 1}, {1, -1}, {1, 0}, {1, 1}};
static const int DIAGONALS[4][2] = {{-1, -1}, {-1, 1}, {1, -1}, {1, 1}};
static const int ORTHOGONALS[4][2] = {{-1, 0}, {1, 0}, {0, -1}, {0, 1}};

/* Calls visit(target) for every square the piece on `from` attacks; steps are sente's, mirrored for gote. */
static int targets(const Pos *p, int from, int out[25]) {
    int piece = p->sq[from], k = kind(piece), forward = owner(piece) == 0 ? 1 : -1, n = 0;
    int r = from / 5, c = from % 5;
#define STEP(dr, dc)                                                   \
    do {                                                               \
        int rr = r + (dr) * forward, cc = c + (dc);                    \
        if (rr >= 0 && rr < 5 && cc >= 0 && cc < 5) out[n++] = rr * 5 + cc; \
    } while (0)
#define SLIDE(dr, dc)                                                  \
    do {                                                               \
        for (int rr = r + (dr), cc = c + (dc); rr >= 0 && rr < 5 && cc >= 0 && cc < 5; rr += (dr), cc += (dc)) { \
            out[n++] = rr * 5 + cc;                                    \
            if (p->sq[rr * 5 + cc] != EMPTY) break;                    \
        }                                                              \
    } while (0)
    switch (k) {
    case PAWN: STEP(-1, 0); break;
    case SILVER: for (int i = 0; i < 5; i++) STEP(SILVER_STEPS[i][0], SILVER_STEPS[i][1]); break;
    case GOLD: case TOKIN: case PSILVER: for (int i = 0; i < 6; i++) STEP(GOLD_STEPS[i][0], GOLD_STEPS[i][1]); break;
    case KING: for (int i = 0; i < 8; i++) STEP(KING_STEPS[i][0], KING_STEPS[i][1]); break;
    case BISHOP: case HORSE:
        for (int i = 0; i < 4; i++) SLIDE(DIAGONALS[i][0], DIAGONALS[i][1]);
        if (k == HORSE) for (int i = 0; i < 4; i++) STEP(ORTHOGONALS[i][0], ORTHOGONALS[i][1]);
        break;
    case ROOK: case DRAGON:
        for (int i = 0; i < 4; i++) SLIDE(ORTHOGONALS[i][0], ORTHOGONALS[i][1]);
        if (k == DRAGON) for (int i = 0; i < 4; i++) STEP(DIAGONALS[i][0], DIAGONALS[i][1]);
        break;
    }
#undef STEP
#undef SLIDE
    return n;
}

static int attacked(const Pos *p, int square, int by) {
    int out[25];
    for (int from = 0; from < 25; from++) {
        if (p->sq[from] == EMPTY || owner(p->sq[from]) != by) continue;
        int n = targets(p, from, out);
        for (int i = 0; i < n; i++)
            if (out[i] == square) return 1;
    }
    return 0;
}

static int king_of(const Pos *p, int side) {
    for (int s = 0; s < 25; s++)
        if (kind(p->sq[s]) == KING && owner(p->sq[s]) == side) return s;
    return -1;
}

static int in_check(const Pos *p, int side) {
    int king = king_of(p, side);
    return king >= 0 && attacked(p, king, 1 - side);
}

static void play(Pos *p, Move m) {
    int sign = p->side == 0 ? 1 : -1;
    if (m.from >= 25) {
        p->hand[p->side][m.from - 25]--;
        p->sq[m.to] = sign * (m.from - 25);
    } else {
        int piece = p->sq[m.from], captured = p->sq[m.to];
        if (captured != EMPTY) p->hand[p->side][base(kind(captured))]++;
        p->sq[m.to] = m.promote ? sign * promoted(kind(piece)) : piece;
        p->sq[m.from] = EMPTY;
    }
    p->side = 1 - p->side;
}

static int legal_count(const Pos *p);

/* Whether the side that just moved left its own king in check. */
static int leaves_check(const Pos *p, Move m) {
    Pos next = *p;
    play(&next, m);
    return in_check(&next, p->side);
}

static int generate(const Pos *p, Move *moves) {
    int n = 0, out[25], side = p->side, zone = side == 0 ? 0 : 4, sign = side == 0 ? 1 : -1;
    for (int from = 0; from < 25; from++) {
        int piece = p->sq[from];
        if (piece == EMPTY || owner(piece) != side) continue;
        int k = kind(piece), count = targets(p, from, out);
        for (int i = 0; i < count; i++) {
            int to = out[i];
            if (p->sq[to] != EMPTY && owner(p->sq[to]) == side) continue;
            int may_promote = promoted(k) && (from / 5 == zone || to / 5 == zone);
            int must_promote = k == PAWN && to / 5 == zone;
            Move m = {from, to, 0};
            if (!must_promote && !leaves_check(p, m)) moves[n++] = m;
            m.promote = 1;
            if (may_promote && !leaves_check(p, m)) moves[n++] = m;
        }
    }
    for (int k = PAWN; k <= ROOK; k++) {
        if (p->hand[side][k] == 0) continue;
        for (int to = 0; to < 25; to++) {
            if (p->sq[to] != EMPTY) continue;
            if (k == PAWN) {
                if (to / 5 == zone) continue;
                int doubled = 0;
                for (int r = 0; r < 5; r++) doubled |= p->sq[r * 5 + to % 5] == sign * PAWN;
                if (doubled) continue;
            }
            Move m = {25 + k, to, 0};
            if (leaves_check(p, m)) continue;
            if (k == PAWN) { /* uchifuzume: a pawn drop may not mate at once */
                Pos next = *p;
                play(&next, m);
                if (in_check(&next, next.side) && legal_count(&next) == 0) continue;
            }
            moves[n++] = m;
        }
    }
    return n;
}

static int legal_count(const Pos *p) {
    Move moves[512];
    return generate(p, moves);
}

static long long perft(const Pos *p, int depth) {
    Move moves[512];
    int n = generate(p, moves);
    if (depth <= 1) return depth == 1 ? n : 1;
    long long total = 0;
    for (int i = 0; i < n; i++) {
        Pos next = *p;
        play(&next, moves[i]);
        total += perft(&next, depth - 1);
    }
    return total;
}

static int letter_kind(char c) {
    const char *at = strchr(LETTERS + 1, c >= 'a' ? c - 32 : c);
    return at ? (int)(at - LETTERS) : 0;
}

/* Reads an SFEN's board, side and hands; 0 when it is not one. */
static int read_sfen(Pos *p, const char *board, const char *side, const char *hands) {
    memset(p, 0, sizeof *p);
    int r = 0, c = 0, plus = 0;
    for (const char *s = board; *s; s++) {
        if (*s == '/') { r++; c = 0; continue; }
        if (*s == '+') { plus = 1; continue; }
        if (*s >= '1' && *s <= '5') { c += *s - '0'; continue; }
        int k = letter_kind(*s);
        if (!k || r > 4 || c > 4) return 0;
        if (plus) k = promoted(k);
        if (!k) return 0;
        p->sq[r * 5 + c++] = *s >= 'a' ? -k : k;
        plus = 0;
    }
    p->side = side[0] == 'w' ? 1 : 0;
    int count = 0;
    for (const char *s = hands; *s && *s != '-'; s++) {
        if (*s >= '0' && *s <= '9') { count = count * 10 + *s - '0'; continue; }
        int k = letter_kind(*s);
        if (!k || k == KING) return 0;
        p->hand[*s >= 'a' ? 1 : 0][k] += count ? count : 1;
        count = 0;
    }
    return 1;
}

static int square_of(const char *s) {
    if (s[0] < '1' || s[0] > '5' || s[1] < 'a' || s[1] > 'e') return -1;
    return (s[1] - 'a') * 5 + ('5' - s[0]);
}

/* Reads a USI move; 0 when it is not one. */
static int read_move(const char *s, Move *m) {
    if (strlen(s) >= 4 && s[1] == '*') {
        int k = letter_kind(s[0]);
        m->from = 25 + k;
        m->to = square_of(s + 2);
        m->promote = 0;
        return k >= PAWN && k <= ROOK && m->to >= 0;
    }
    if (strlen(s) < 4) return 0;
    m->from = square_of(s);
    m->to = square_of(s + 2);
    m->promote = s[4] == '+';
    return m->from >= 0 && m->to >= 0;
}

static void write_move(Move m, char *out) {
    if (m.from >= 25)
        sprintf(out, "%c*%c%c", LETTERS[m.from - 25], '5' - m.to % 5, 'a' + m.to / 5);
    else
        sprintf(out, "%c%c%c%c%s", '5' - m.from % 5, 'a' + m.from / 5, '5' - m.to % 5, 'a' + m.to / 5,
                m.promote ? "+" : "");
}

static const char *START = "rbsgk/4p/5/P4/KGSBR";

/* "position startpos moves ..." or "position sfen B S H N moves ...": 0 when it cannot be read. */
static int read_position(Pos *p, char *line) {
    char *words[4096];
    int n = 0;
    for (char *w = strtok(line, " \t\r\n"); w && n < 4096; w = strtok(NULL, " \t\r\n")) words[n++] = w;
    int i = 1;
    if (i < n && strcmp(words[i], "startpos") == 0) {
        read_sfen(p, START, "b", "-");
        i++;
    } else if (i + 3 < n && strcmp(words[i], "sfen") == 0) {
        if (!read_sfen(p, words[i + 1], words[i + 2], words[i + 3])) return 0;
        i += 4;
        if (i < n && strcmp(words[i], "moves") != 0) i++; /* the move number */
    } else {
        return 0;
    }
    if (i < n && strcmp(words[i], "moves") == 0) i++;
    for (; i < n; i++) {
        Move m;
        if (!read_move(words[i], &m)) return 0;
        play(p, m);
    }
    return 1;
}

static uint64_t mix(uint64_t x) {
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ULL;
    return x ^ (x >> 33);
}

static uint64_t hash(const Pos *p, uint64_t seed) {
    uint64_t h = mix(seed + 1);
    for (int s = 0; s < 25; s++) h = mix(h ^ (uint64_t)(p->sq[s] + 16) << (s % 8));
    for (int k = 0; k < 6; k++) h = mix(h ^ (uint64_t)(p->hand[0][k] * 7 + p->hand[1][k] * 3 + k));
    return mix(h ^ (uint64_t)p->side);
}

static long long now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1000LL + t.tv_nsec / 1000000;
}

static long value_after(char **words, int n, const char *name) {
    for (int i = 0; i + 1 < n; i++)
        if (strcmp(words[i], name) == 0) return atol(words[i + 1]);
    return -1;
}

static char input[1 << 16];
static size_t input_used;

/* The next line of standard input within `wait_ms` (-1: no limit): 1 read, 0 none yet, -1 end of input. */
static int next_line(char *line, size_t size, long long wait_ms) {
    for (;;) {
        char *newline = memchr(input, '\n', input_used);
        if (newline) {
            size_t length = (size_t)(newline - input);
            size_t copied = length < size - 1 ? length : size - 1;
            memcpy(line, input, copied);
            line[copied] = 0;
            input_used -= length + 1;
            memmove(input, newline + 1, input_used);
            return 1;
        }
        if (input_used == sizeof input) input_used = 0; /* an overlong line: dropped */
        struct pollfd in = {0, POLLIN, 0};
        int ready = poll(&in, 1, wait_ms < 0 ? -1 : (int)wait_ms);
        if (ready == 0) return 0;
        if (ready < 0) continue;
        ssize_t got = read(0, input + input_used, sizeof input - input_used);
        if (got <= 0) return -1;
        input_used += (size_t)got;
    }
}

int main(int argc, char **argv) {
    long think_min = 0, think_max = 0;
    uint64_t seed = 1;
    const char *name = "light";
    int no_usiok = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--think-ms") == 0 && i + 1 < argc) {
            char *dash;
            think_min = think_max = strtol(argv[++i], &dash, 10);
            if (*dash == '-') think_max = strtol(dash + 1, NULL, 10);
            if (think_min < 0 || think_max < think_min) {
                fprintf(stderr, "light engine: --think-ms MIN[-MAX] with 0 <= MIN <= MAX\n");
                return 2;
            }
        } else if (strcmp(argv[i], "--seed") == 0 && i + 1 < argc) {
            seed = strtoull(argv[++i], NULL, 10);
        } else if (strcmp(argv[i], "--start-cpu-ms") == 0 && i + 1 < argc) {
            long millis = atol(argv[++i]);
            struct timespec t;
            volatile uint64_t spin = 0;
            for (;;) {
                clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
                if (t.tv_sec * 1000LL + t.tv_nsec / 1000000 >= millis) break;
                for (int k = 0; k < 100000; k++) spin += (uint64_t)k;
            }
        } else if (strcmp(argv[i], "--no-usiok") == 0) {
            no_usiok = 1;
        } else if (strcmp(argv[i], "--name") == 0 && i + 1 < argc) {
            name = argv[++i];
        } else if (strcmp(argv[i], "--perft") == 0 && i + 1 < argc) {
            int depth = atoi(argv[++i]);
            Pos p;
            char board[64], side[4], hands[32];
            if (i + 1 < argc && sscanf(argv[i + 1], "%63s %3s %31s", board, side, hands) == 3) {
                if (!read_sfen(&p, board, side, hands)) { fprintf(stderr, "light engine: not an SFEN\n"); return 2; }
            } else {
                read_sfen(&p, START, "b", "-");
            }
            printf("nodes %lld\n", perft(&p, depth));
            return 0;
        } else {
            fprintf(stderr, "usage: light-engine [--think-ms MIN[-MAX]] [--seed N] [--name NAME] [--start-cpu-ms N] [--no-usiok] | --perft DEPTH [SFEN]\n");
            return 2;
        }
    }
    setvbuf(stdout, NULL, _IOLBF, 0);
    Pos position;
    read_sfen(&position, START, "b", "-");
    char line[1 << 16];
    uint64_t draws = mix(seed ^ 0x5eed);
    for (;;) {
        if (next_line(line, sizeof line, -1) < 0) return 0;
        char copy[sizeof line];
        strcpy(copy, line);
        char *words[64];
        int n = 0;
        for (char *w = strtok(copy, " \t\r"); w && n < 64; w = strtok(NULL, " \t\r")) words[n++] = w;
        if (n == 0) continue;
        if (strcmp(words[0], "usi") == 0) {
            printf("id name %s\nid author Taikai testkit\n"
                   "option name UCI_Variant type combo default minishogi var minishogi\n%s", name,
                   no_usiok ? "" : "usiok\n");
        } else if (strcmp(words[0], "isready") == 0) {
            printf("readyok\n");
        } else if (strcmp(words[0], "position") == 0) {
            Pos read;
            if (read_position(&read, line)) position = read;
            else printf("info string cannot read the position\n");
        } else if (strcmp(words[0], "quit") == 0) {
            return 0;
        } else if (strcmp(words[0], "go") == 0) {
            int infinite = value_after(words, n, "infinite") != -1 || strcmp(words[n - 1], "infinite") == 0;
            int pondering = strcmp(words[n - 1], "ponder") == 0 || value_after(words, n, "ponder") != -1;
            draws = mix(draws);
            long think = think_min + (long)(draws % (uint64_t)(think_max - think_min + 1));
            long movetime = value_after(words, n, "movetime"), byoyomi = value_after(words, n, "byoyomi");
            long own = value_after(words, n, position.side == 0 ? "btime" : "wtime");
            if (movetime >= 0 && think > movetime / 2) think = movetime / 2;
            if (own >= 0) {
                long share = own / 20 + (byoyomi > 0 ? byoyomi / 2 : 0);
                if (think > share) think = share;
            } else if (byoyomi >= 0 && think > byoyomi / 2) {
                think = byoyomi / 2;
            }
            long long deadline = infinite || pondering ? -1 : now_ms() + think;
            for (;;) {
                long long left = deadline < 0 ? -1 : deadline - now_ms();
                if (deadline >= 0 && left <= 0) break;
                char command[256];
                int got = next_line(command, sizeof command, left);
                if (got < 0) return 0;
                if (got == 0) continue;
                if (strncmp(command, "stop", 4) == 0) break;
                if (strncmp(command, "quit", 4) == 0) return 0;
                if (strncmp(command, "isready", 7) == 0) printf("readyok\n");
                if (strncmp(command, "ponderhit", 9) == 0) deadline = now_ms() + think;
            }
            Move moves[512];
            int count = generate(&position, moves);
            if (count == 0) {
                printf("bestmove resign\n");
                continue;
            }
            char text[16];
            write_move(moves[hash(&position, seed) % (uint64_t)count], text);
            printf("info depth 1 nodes %d score cp 0 pv %s\nbestmove %s\n", count, text, text);
        }
        /* usinewgame, setoption, gameover and anything else: nothing to do */
    }
}
