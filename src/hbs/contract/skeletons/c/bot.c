/* NAME: the first code that fits every answer so far, as a program speaking hbs's line protocol
 * (docs/protocol.md); a skeleton from `hbs new`: make it yours.
 *
 * Reads one JSON request a line on stdin, writes one JSON reply a line on stdout.  It understands
 * just the requests the protocol defines, as hbs writes them; a real bot would use a JSON library.
 * Option `order` (bot.toml): "first" or "last" fitting code in lexicographic order.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_PEGS 15
#define MAX_TURNS 256

static char symbols[64];
static int pegs, colors, distinct, last;  /* last: option order=last */
static char *codes;  /* every code of the game, pegs chars each, in lexicographic order */
static long ncodes;
static char turns[MAX_TURNS][MAX_PEGS + 1];
static int blacks[MAX_TURNS], whites[MAX_TURNS];

/* The value after "key": in a JSON line (NULL when absent). */
static const char *value_of(const char *line, const char *key) {
    char quoted[64];
    snprintf(quoted, sizeof quoted, "\"%s\"", key);
    const char *at = strstr(line, quoted);
    if (!at) return NULL;
    at = strchr(at + strlen(quoted), ':');
    if (!at) return NULL;
    at++;
    while (*at == ' ') at++;
    return at;
}

/* Copies a JSON string (no escapes: codes and kinds have none) into out; returns the end. */
static const char *read_string(const char *at, char *out, size_t size) {
    size_t n = 0;
    if (*at != '"') return NULL;
    for (at++; *at && *at != '"'; at++)
        if (n + 1 < size) out[n++] = *at;
    out[n] = '\0';
    return *at == '"' ? at + 1 : NULL;
}

/* The answer (black, white) of guess g against secret s, both pegs symbols long. */
static void grade(const char *g, const char *s, int *black, int *white) {
    int count_g[256] = {0}, count_s[256] = {0}, common = 0;
    *black = 0;
    for (int i = 0; i < pegs; i++) {
        if (g[i] == s[i]) (*black)++;
        count_g[(unsigned char)g[i]]++;
        count_s[(unsigned char)s[i]]++;
    }
    for (int c = 0; c < 256; c++) common += count_g[c] < count_s[c] ? count_g[c] : count_s[c];
    *white = common - *black;
}

static void setup(const char *line) {
    char kind[32];
    const char *at = value_of(line, "kind");
    if (!at || !read_string(at, kind, sizeof kind) || strcmp(kind, "phrases") == 0) {
        printf("{\"unsupported\": \"NAME plays code games (mastermind, bulls)\"}\n");
        return;
    }
    distinct = strcmp(kind, "bulls") == 0;
    char order[16] = "first";
    const char *given = value_of(line, "order");  /* in "options" (bot.toml declares its default) */
    if (given) read_string(given, order, sizeof order);
    last = strcmp(order, "last") == 0;
    pegs = atoi(value_of(line, "pegs"));
    colors = atoi(value_of(line, "colors"));
    read_string(value_of(line, "alphabet"), symbols, sizeof symbols);
    if (pegs < 1 || pegs > MAX_PEGS || colors < 1 || colors > (int)strlen(symbols)) {
        printf("{\"error\": \"cannot read the game\"}\n");
        return;
    }
    long total = 1;
    for (int i = 0; i < pegs; i++) total *= colors;
    free(codes);
    codes = malloc((size_t)total * pegs);
    ncodes = 0;
    int digit[MAX_PEGS] = {0};
    for (long k = 0; k < total; k++) {  /* count in base `colors`: lexicographic order */
        int used[64] = {0}, ok = 1;
        for (int i = 0; i < pegs; i++) {
            if (distinct && used[digit[i]]++) ok = 0;
        }
        if (ok) {
            for (int i = 0; i < pegs; i++) codes[ncodes * pegs + i] = symbols[digit[i]];
            ncodes++;
        }
        for (int i = pegs - 1; i >= 0 && ++digit[i] == colors; i--) digit[i] = 0;
    }
    printf("{\"ok\": true}\n");
}

static void guess(const char *line) {
    int n = 0;
    const char *at = value_of(line, "history");
    while (at && (at = strchr(at, '[')) != NULL && n < MAX_TURNS) {
        at++;
        while (*at == ' ' || *at == '[') at++;
        if (*at != '"') break;
        at = read_string(at, turns[n], sizeof turns[n]);
        if (!at) break;
        blacks[n] = (int)strtol(at + 1 + strspn(at + 1, " ,"), (char **)&at, 10);
        whites[n] = (int)strtol(at + strspn(at, " ,"), (char **)&at, 10);
        n++;
    }
    long first = -1, remaining = 0;
    for (long k = 0; k < ncodes; k++) {
        const char *code = codes + k * pegs;
        int fits = 1;
        for (int t = 0; t < n && fits; t++) {
            int b, w;
            grade(turns[t], code, &b, &w);
            fits = b == blacks[t] && w == whites[t] && strncmp(turns[t], code, pegs) != 0;
        }
        if (fits) {
            if (first < 0 || last) first = k;
            remaining++;
        }
    }
    if (first < 0) {
        printf("{\"error\": \"no code fits the answers\"}\n");
        return;
    }
    printf("{\"guess\": \"%.*s\", \"remaining\": %ld}\n", pegs, codes + first * pegs, remaining);
}

int main(void) {
    char *line = NULL;
    size_t size = 0;
    while (getline(&line, &size, stdin) > 0) {
        char op[16] = "";
        const char *at = value_of(line, "op");
        if (at) read_string(at, op, sizeof op);
        if (strcmp(op, "setup") == 0) setup(line);
        else if (strcmp(op, "guess") == 0) guess(line);
        else printf("{\"error\": \"unknown request\"}\n");
        fflush(stdout);
    }
    free(line);
    free(codes);
    return 0;
}
