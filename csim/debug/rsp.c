/* rsp.c: the packet layer of GDB's remote serial protocol; see rsp.h. */
#include "debug/rsp.h"

#include "core/xalloc.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

struct wm_rsp {
    int fd;
    bool ack;   /* acknowledgements on */
    bool eof;   /* nothing more will come */
    char in[4096];
    size_t in_len, in_pos;
    /* the packet being read: its raw data, its checksum digits */
    enum { IDLE, DATA, CS1, CS2 } state;
    char raw[WM_RSP_PACKET_MAX + 1];
    size_t raw_len;
    bool overflow;
    unsigned sum, cs_got;
    char data[WM_RSP_PACKET_MAX + 1]; /* escapes and repeats undone */
    char *last;                       /* the last packet sent, framed, for a `-` */
    size_t last_len;
};

static bool addr_is_loopback(const struct sockaddr *sa)
{
    if (sa->sa_family == AF_INET)
        return (ntohl(((const struct sockaddr_in *)(const void *)sa)->sin_addr.s_addr) >> 24) == 127;
    if (sa->sa_family == AF_INET6) {
        const struct in6_addr *a = &((const struct sockaddr_in6 *)(const void *)sa)->sin6_addr;
        if (IN6_IS_ADDR_LOOPBACK(a)) return true;
        return IN6_IS_ADDR_V4MAPPED(a) && a->s6_addr[12] == 127;
    }
    return false;
}

static struct addrinfo *resolve(const char *host, unsigned port, int *gai)
{
    char service[16];
    snprintf(service, sizeof service, "%u", port);
    struct addrinfo hints, *res = NULL;
    memset(&hints, 0, sizeof hints);
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV;
    *gai = getaddrinfo(host, service, &hints, &res);
    return *gai ? NULL : res;
}

bool wm_rsp_host_is_loopback(const char *host)
{
    int gai;
    struct addrinfo *res = resolve(host, 0, &gai);
    if (!res) return false;
    bool all = true;
    for (const struct addrinfo *a = res; a; a = a->ai_next) all = all && addr_is_loopback(a->ai_addr);
    freeaddrinfo(res);
    return all;
}

bool wm_rsp_listen(wm_rsp_listener *l, const char *host, unsigned port, bool any_host, char *err, size_t err_size)
{
    l->fd = -1;
    l->port = 0;
    int gai;
    struct addrinfo *res = resolve(host, port, &gai);
    if (!res) {
        snprintf(err, err_size, "cannot resolve %s: %s", host, gai_strerror(gai));
        return false;
    }
    int e = 0;
    for (const struct addrinfo *a = res; a && l->fd < 0; a = a->ai_next) {
        if (!any_host && !addr_is_loopback(a->ai_addr)) {
            e = EACCES;
            continue;
        }
        const int fd = socket(a->ai_family, a->ai_socktype | SOCK_CLOEXEC, a->ai_protocol);
        if (fd < 0) {
            e = errno;
            continue;
        }
        const int one = 1;
        (void)setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
        if (bind(fd, a->ai_addr, a->ai_addrlen) || listen(fd, 1)) {
            e = errno;
            close(fd);
            continue;
        }
        struct sockaddr_storage ss;
        socklen_t sl = sizeof ss;
        if (!getsockname(fd, (struct sockaddr *)&ss, &sl))
            l->port = ntohs(ss.ss_family == AF_INET6 ? ((struct sockaddr_in6 *)&ss)->sin6_port
                                                     : ((struct sockaddr_in *)&ss)->sin_port);
        l->fd = fd;
    }
    freeaddrinfo(res);
    if (l->fd >= 0) return true;
    if (e == EACCES)
        snprintf(err, err_size, "%s is not a loopback address", host);
    else
        snprintf(err, err_size, "cannot listen on %s:%u: %s", host, port, strerror(e));
    return false;
}

int wm_rsp_accept(wm_rsp_listener *l, char *err, size_t err_size)
{
    const int fd = accept(l->fd, NULL, NULL);
    if (fd < 0) {
        if (errno == EINTR) snprintf(err, err_size, "interrupted while waiting for GDB");
        else snprintf(err, err_size, "accepting a connection: %s", strerror(errno));
        return -1;
    }
    const int one = 1;
    (void)setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    /* a peer that stops reading is a dropped connection, not a hung run */
    const struct timeval send_timeout = {.tv_sec = 10};
    (void)setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &send_timeout, sizeof send_timeout);
    return fd;
}

void wm_rsp_listener_close(wm_rsp_listener *l)
{
    if (l->fd >= 0) close(l->fd);
    l->fd = -1;
}

wm_rsp *wm_rsp_open(int fd)
{
    wm_rsp *c = wm_xcalloc(1, sizeof *c);
    c->fd = fd;
    c->ack = true;
    return c;
}

void wm_rsp_close(wm_rsp *c)
{
    if (!c) return;
    close(c->fd);
    free(c->last);
    free(c);
}

void wm_rsp_no_ack(wm_rsp *c) { c->ack = false; }

static bool write_all(wm_rsp *c, const char *p, size_t n)
{
    while (n) {
        const ssize_t w = send(c->fd, p, n, MSG_NOSIGNAL);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) {
            c->eof = true;
            return false;
        }
        p += w;
        n -= (size_t)w;
    }
    return true;
}

static int hexval(int ch)
{
    if (ch >= '0' && ch <= '9') return ch - '0';
    if (ch >= 'a' && ch <= 'f') return ch - 'a' + 10;
    if (ch >= 'A' && ch <= 'F') return ch - 'A' + 10;
    return -1;
}

/* Undo escapes and repeats of the raw data into c->data; false when the
 * result would not fit, or a repeat has nothing to repeat. */
static bool decode(wm_rsp *c, size_t *len)
{
    size_t n = 0;
    for (size_t i = 0; i < c->raw_len; i++) {
        char ch = c->raw[i];
        if (ch == '}') {
            if (++i == c->raw_len) return false;
            ch = (char)(c->raw[i] ^ 0x20);
        } else if (ch == '*') {
            if (!n || ++i == c->raw_len) return false;
            const int count = (unsigned char)c->raw[i] - 29;
            if (count < 0 || n + (size_t)count > WM_RSP_PACKET_MAX) return false;
            memset(c->data + n, c->data[n - 1], (size_t)count);
            n += (size_t)count;
            continue;
        }
        if (n == WM_RSP_PACKET_MAX) return false;
        c->data[n++] = ch;
    }
    c->data[n] = '\0';
    *len = n;
    return true;
}

/* Fill the input buffer; false on end of file or error (WM_RSP_CLOSED),
 * or nothing within timeout_ms (*none set). */
static bool fill(wm_rsp *c, int timeout_ms, bool *none)
{
    *none = false;
    if (c->eof) return false;
    struct pollfd p = {.fd = c->fd, .events = POLLIN};
    for (;;) {
        const int r = poll(&p, 1, timeout_ms);
        if (r < 0 && errno == EINTR) {
            /* a signal: the caller looks at its flag */
            *none = true;
            return false;
        }
        if (r < 0) break;
        if (r == 0) {
            *none = true;
            return false;
        }
        const ssize_t got = recv(c->fd, c->in, sizeof c->in, 0);
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) break;
        c->in_len = (size_t)got;
        c->in_pos = 0;
        return true;
    }
    c->eof = true;
    return false;
}

wm_rsp_event wm_rsp_next(wm_rsp *c, int timeout_ms, const char **data, size_t *len)
{
    for (;;) {
        if (c->in_pos == c->in_len) {
            bool none;
            if (!fill(c, timeout_ms, &none)) return none ? WM_RSP_NONE : WM_RSP_CLOSED;
        }
        const char ch = c->in[c->in_pos++];
        switch (c->state) {
        case IDLE:
            if (ch == '$') {
                c->state = DATA;
                c->raw_len = 0;
                c->sum = 0;
                c->overflow = false;
            } else if (ch == 0x03) {
                return WM_RSP_INTERRUPT;
            } else if (ch == '-' && c->ack && c->last) {
                if (!write_all(c, c->last, c->last_len)) return WM_RSP_CLOSED;
            }
            /* '+' and anything else between packets: nothing to do */
            break;
        case DATA:
            if (ch == '#') {
                c->state = CS1;
                break;
            }
            c->sum = (c->sum + (unsigned char)ch) & 0xFFu;
            if (c->raw_len < WM_RSP_PACKET_MAX) c->raw[c->raw_len++] = ch;
            else c->overflow = true;
            break;
        case CS1:
            c->cs_got = (unsigned)(hexval(ch) < 0 ? 0x100 : hexval(ch) << 4);
            c->state = CS2;
            break;
        case CS2: {
            c->state = IDLE;
            const bool ok = hexval(ch) >= 0 && c->cs_got < 0x100 && (c->cs_got | (unsigned)hexval(ch)) == c->sum;
            if (!ok && !c->overflow) {
                if (c->ack && !write_all(c, "-", 1)) return WM_RSP_CLOSED;
                break;
            }
            if (c->ack && !write_all(c, "+", 1)) return WM_RSP_CLOSED;
            if (c->overflow || !decode(c, len)) return WM_RSP_TOO_LONG;
            *data = c->data;
            return WM_RSP_PACKET;
        }
        }
    }
}

bool wm_rsp_send(wm_rsp *c, const char *data, size_t len)
{
    /* worst case: every byte escaped, plus $, #, two digits */
    char *out = wm_xmalloc(2 * len + 4);
    size_t n = 0;
    unsigned sum = 0;
    out[n++] = '$';
    for (size_t i = 0; i < len;) {
        const char ch = data[i];
        size_t run = 1;
        while (i + run < len && data[i + run] == ch && run < 98) run++;
        if (ch == '$' || ch == '#' || ch == '}' || ch == '*') {
            out[n++] = '}';
            out[n++] = (char)(ch ^ 0x20);
            sum += '}' + (unsigned char)(ch ^ 0x20);
            i++;
            continue;
        }
        out[n++] = ch;
        sum += (unsigned char)ch;
        i++;
        if (run >= 4) {
            /* ch then '*' and 29 + the repeats; '#' and '$' are not counts */
            size_t rep = run - 1;
            if (rep == 6 || rep == 7) rep = 5;
            out[n++] = '*';
            out[n++] = (char)(29 + rep);
            sum += '*' + (unsigned)(29 + rep);
            i += rep;
        }
    }
    static const char hex[] = "0123456789abcdef";
    out[n++] = '#';
    out[n++] = hex[(sum >> 4) & 15];
    out[n++] = hex[sum & 15];
    free(c->last);
    c->last = out;
    c->last_len = n;
    return write_all(c, out, n);
}

bool wm_rsp_send_str(wm_rsp *c, const char *text) { return wm_rsp_send(c, text, strlen(text)); }

bool wm_rsp_send_error(wm_rsp *c, unsigned code)
{
    char e[8];
    snprintf(e, sizeof e, "E%02x", code & 0xFFu);
    return wm_rsp_send_str(c, e);
}
