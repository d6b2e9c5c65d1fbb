/* rsp.h: GDB's remote serial protocol, the packet layer (docs/debugging.md).
 *
 * What travels on the socket, whatever the target: a listening socket on
 * one address, one connection at a time, and on it packets `$data#cs`
 * (cs: two hex digits, the sum of the data's bytes modulo 256), each
 * acknowledged with `+` (or `-`: send it again) until GDB turns the
 * acknowledgements off (QStartNoAckMode), the byte 0x03 alone for an
 * interrupt (Ctrl-C). In the data, `}` escapes the next byte (xor 0x20)
 * and `X*n` repeats X (n - 29) more times; both are undone on the way in,
 * and the replies are sent escaped and run-length encoded.
 *
 * A packet longer than WM_RSP_PACKET_MAX (PacketSize in qSupported) is
 * read to its end and dropped, and said so (WM_RSP_TOO_LONG), so that the
 * caller answers it with an error and the connection goes on; a bad
 * checksum is answered `-`, as the protocol says. The target layer
 * (gdb_server.h) gives the packets their meaning. */
#ifndef WM_RSP_H
#define WM_RSP_H

#include "core/must_use.h"

#include <stdbool.h>
#include <stddef.h>

enum {
    WM_RSP_PACKET_MAX = 16384 /* data bytes of a packet, either way */
};

/* A listening socket. */
typedef struct {
    int fd;
    unsigned port; /* the one bound (the system's choice when asked for 0) */
} wm_rsp_listener;

/* Listen on host:port (port 0: any free one, its number in l->port).
 * Unless any_host, host must be a loopback address (127.0.0.0/8, ::1, or a
 * name that resolves only to those): the protocol has no authentication,
 * and whoever reaches the port can read and write the PEs' memory. False
 * with the reason in err. */
WM_MUST_USE bool wm_rsp_listen(wm_rsp_listener *l, const char *host, unsigned port, bool any_host, char *err,
                               size_t err_size);
/* Whether host names only loopback addresses (false: also when it does
 * not resolve). */
bool wm_rsp_host_is_loopback(const char *host);
/* Wait for a connection; its socket, or -1 with the reason in err
 * (interrupted: EINTR, after a signal). */
int wm_rsp_accept(wm_rsp_listener *l, char *err, size_t err_size);
/* Stop listening. */
void wm_rsp_listener_close(wm_rsp_listener *l);

typedef struct wm_rsp wm_rsp;

typedef enum {
    WM_RSP_PACKET = 0, /* a packet: its data (NUL-terminated, escapes undone) */
    WM_RSP_INTERRUPT,  /* 0x03 */
    WM_RSP_TOO_LONG,   /* a packet over WM_RSP_PACKET_MAX, dropped */
    WM_RSP_NONE,       /* nothing within the time given */
    WM_RSP_CLOSED      /* the peer closed (or half-closed) the connection, or it failed */
} wm_rsp_event;

/* The connection over socket fd, which it owns from now on. */
wm_rsp *wm_rsp_open(int fd);
void wm_rsp_close(wm_rsp *c);
/* The next event; timeout_ms < 0 waits for ever, 0 only looks. A packet's
 * data is in *data (length *len) until the next call. */
wm_rsp_event wm_rsp_next(wm_rsp *c, int timeout_ms, const char **data, size_t *len);
/* Send a packet; false when the connection is gone. */
bool wm_rsp_send(wm_rsp *c, const char *data, size_t len);
bool wm_rsp_send_str(wm_rsp *c, const char *text);
/* The error reply `E NN`. */
bool wm_rsp_send_error(wm_rsp *c, unsigned code);
/* Acknowledgements off (after QStartNoAckMode has been answered). */
void wm_rsp_no_ack(wm_rsp *c);

#endif
