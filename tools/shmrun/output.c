/*
 * The ranks' output, forwarded in whole lines.
 *
 * Each rank's stdout and stderr arrive on a pipe of their own (struct
 * run_out); what the loop reads is appended to the stream's buffer, and
 * every finished line is written to shmrun's stdout or stderr with blocking
 * writes.  shmrun is the only writer and writes a line in one go, so lines
 * of different ranks never mix.  What follows the last newline is held:
 *   - at EOF it is written as is, or with --tag-output as
 *     "[rank] text [no newline]\n";
 *   - without --tag-output it is also written once it has waited
 *     RUN_PARTIAL_MS (progress dots must show up), but kept in the buffer
 *     (as `sent`) until its line ends: the loop may have a read in flight
 *     into the buffer behind it, so nothing there may move;
 *   - a line that fills the whole buffer is written in pieces, each one
 *     tagged and ended as a line of its own with --tag-output.
 * When a destination's reader goes away (EPIPE), its output is dropped and
 * the loop closes the ranks' pipes to it, so the ranks see EPIPE or SIGPIPE
 * as they would when writing there themselves.
 */
#include <errno.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "shmrun.h"

#define OUT_TAG_MAX 16			/* "[4095] " */
#define OUT_NO_NEWLINE " [no newline]\n"

static bool out_dead[3];		/* indexed by fd: 1 and 2 */

/* Tagged lines are gathered here, so a buffer's worth takes one write. */
static char out_stage[2 * RUN_OUT_BUF];
static size_t out_staged;

static int out_write_all(int fd, const char *p, size_t n)
{
	while (n > 0) {
		ssize_t w = write(fd, p, n);

		if (w < 0 && errno == EAGAIN) {
			/* inherited O_NONBLOCK: wait until it takes more */
			struct pollfd pfd = { .fd = fd, .events = POLLOUT };

			poll(&pfd, 1, -1);
			continue;
		}
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return -errno;
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

static void out_emit(int dest, const char *p, size_t n)
{
	int rc;

	if (out_dead[dest] || n == 0)
		return;
	rc = out_write_all(dest, p, n);
	if (rc < 0) {
		out_dead[dest] = true;
		if (rc != -EPIPE && dest != STDERR_FILENO)
			run_msg("writing the ranks' output: %s", strerror(-rc));
	}
}

static void out_stage_flush(int dest)
{
	out_emit(dest, out_stage, out_staged);
	out_staged = 0;
}

/* Stage "[rank] " + text + end; every piece is at most RUN_OUT_BUF long. */
static void out_stage_line(const struct run_out *o, const char *text, size_t n,
			   const char *end)
{
	size_t endlen = strlen(end);

	if (out_staged + OUT_TAG_MAX + n + endlen > sizeof(out_stage))
		out_stage_flush(o->dest);
	out_staged += (size_t)snprintf(out_stage + out_staged, OUT_TAG_MAX, "[%d] ", o->rank);
	memcpy(out_stage + out_staged, text, n);
	out_staged += n;
	memcpy(out_stage + out_staged, end, endlen);
	out_staged += endlen;
}

/* Write the finished lines buf[sent, n), n just past a newline. */
static void out_lines(struct run_out *o, size_t n)
{
	const char *p = o->buf + o->sent, *end = o->buf + n;

	if (!o->tag) {
		out_emit(o->dest, p, (size_t)(end - p));
		return;
	}
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));

		out_stage_line(o, p, (size_t)(nl - p) + 1, "");
		p = nl + 1;
	}
	out_stage_flush(o->dest);
}

/* Write what is held though it is no line (yet), and drop it. */
static void out_partial(struct run_out *o, const char *end)
{
	if (o->len > o->sent) {
		if (o->tag) {
			out_stage_line(o, o->buf, o->len, end);
			out_stage_flush(o->dest);
		} else {
			out_emit(o->dest, o->buf + o->sent, o->len - o->sent);
		}
	}
	o->len = 0;
	o->sent = 0;
}

int run_out_init(struct run_out *o, int rank, int fd, int dest, bool tag)
{
	char *buf = malloc(RUN_OUT_BUF);

	if (!buf)
		return -ENOMEM;
	o->buf = buf;
	o->fd = fd;
	o->dest = dest;
	o->rank = rank;
	o->tag = tag;
	o->reading = false;
	o->len = 0;
	o->sent = 0;
	o->held_since = 0;
	return 0;
}

void run_out_data(struct run_out *o, size_t n, uint64_t now)
{
	size_t old = o->len;
	char *nl;

	o->len += n;
	nl = memrchr(o->buf + old, '\n', n);
	if (nl) {
		size_t done = (size_t)(nl - o->buf) + 1;

		out_lines(o, done);
		o->len -= done;
		o->sent = 0;
		memmove(o->buf, nl + 1, o->len);
		o->held_since = now;
	} else if (old == o->sent) {
		o->held_since = now;
	}
	if (o->len == RUN_OUT_BUF)
		out_partial(o, o->tag ? "\n" : "");
}

void run_out_tick(struct run_out *o, uint64_t now)
{
	/* written but kept: a read may be filling the buffer behind it */
	if (!o->tag && o->len > o->sent &&
	    now - o->held_since >= RUN_PARTIAL_MS * RUN_NS_PER_MS) {
		out_emit(o->dest, o->buf + o->sent, o->len - o->sent);
		o->sent = o->len;
	}
}

void run_out_eof(struct run_out *o)
{
	out_partial(o, o->tag ? OUT_NO_NEWLINE : "");
	if (o->fd >= 0)
		close(o->fd);
	o->fd = -1;
}

void run_out_free(struct run_out *o)
{
	if (o->fd >= 0)
		close(o->fd);
	o->fd = -1;
	free(o->buf);
	o->buf = NULL;
}

bool run_out_dest_dead(int dest)
{
	return out_dead[dest];
}

void run_msg(const char *fmt, ...)
{
	char line[1024];
	va_list ap;
	int n;

	n = snprintf(line, sizeof(line), "shmrun: ");
	va_start(ap, fmt);
	n += vsnprintf(line + n, sizeof(line) - (size_t)n - 1, fmt, ap);
	va_end(ap);
	if ((size_t)n > sizeof(line) - 2)
		n = (int)sizeof(line) - 2;
	line[n++] = '\n';
	/* through the same writer as the ranks' stderr: it stays whole */
	out_write_all(STDERR_FILENO, line, (size_t)n);
}
