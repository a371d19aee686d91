// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * kpu-fuse: a FUSE server that serves one file, read-only, for the
 * user-space probe tests (tests/guest/tests.d/user-probes.sh).  FUSE
 * fills the page cache only through an open struct file, which is what
 * those tests need: a file system whose ->read_folio dereferences it.
 *
 *   kpu-fuse MOUNTPOINT FILE    mount a FUSE file system on MOUNTPOINT
 *                               whose root holds a copy of FILE under
 *                               its base name, and serve it until it is
 *                               unmounted
 *
 * It speaks the kernel's protocol (<linux/fuse.h>) on /dev/fuse directly,
 * without libfuse, answering only what a lookup, stat, open, read, mmap
 * and exec of that file need; everything else gets ENOSYS.
 */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <linux/fuse.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#define FILE_INO	2
#define BUF_SIZE	(1 << 20)
#define VALID_SECS	3600

static char *data;		/* the served file's contents */
static size_t size;
static const char *name;	/* its name under the mount point */
static int fuse_fd;

static void die(const char *what)
{
	perror(what);
	exit(1);
}

/* Send the answer to request @unique: @error (<= 0), or @len bytes. */
static void reply(uint64_t unique, int error, const void *buf, size_t len)
{
	static char out[BUF_SIZE];
	struct fuse_out_header *oh = (struct fuse_out_header *)out;

	if (len > sizeof(out) - sizeof(*oh))
		len = sizeof(out) - sizeof(*oh);
	oh->unique = unique;
	oh->error = error;
	oh->len = sizeof(*oh) + (error ? 0 : len);
	if (!error && len)
		memcpy(out + sizeof(*oh), buf, len);
	/* ENOENT: the request was interrupted and is gone. */
	if (write(fuse_fd, out, oh->len) < 0 && errno != ENOENT)
		die("write /dev/fuse");
}

static void fill_attr(uint64_t ino, struct fuse_attr *a)
{
	memset(a, 0, sizeof(*a));
	a->ino = ino;
	a->blksize = 4096;
	if (ino == FUSE_ROOT_ID) {
		a->mode = S_IFDIR | 0755;
		a->nlink = 2;
		return;
	}
	a->mode = S_IFREG | 0755;
	a->nlink = 1;
	a->size = size;
	a->blocks = (size + 511) / 512;
}

static void do_init(struct fuse_in_header *ih, const struct fuse_init_in *in)
{
	struct fuse_init_out out;

	memset(&out, 0, sizeof(out));
	out.major = FUSE_KERNEL_VERSION;
	out.minor = FUSE_KERNEL_MINOR_VERSION;
	out.max_readahead = in->max_readahead;
	out.max_background = 16;
	out.congestion_threshold = 12;
	out.max_write = 4096;
	out.time_gran = 1;
	reply(ih->unique, 0, &out, sizeof(out));
}

static void do_lookup(struct fuse_in_header *ih, const char *want)
{
	struct fuse_entry_out out;

	if (ih->nodeid != FUSE_ROOT_ID || strcmp(want, name)) {
		reply(ih->unique, -ENOENT, NULL, 0);
		return;
	}
	memset(&out, 0, sizeof(out));
	out.nodeid = FILE_INO;
	out.generation = 1;
	out.entry_valid = VALID_SECS;
	out.attr_valid = VALID_SECS;
	fill_attr(FILE_INO, &out.attr);
	reply(ih->unique, 0, &out, sizeof(out));
}

static void do_getattr(struct fuse_in_header *ih)
{
	struct fuse_attr_out out;

	memset(&out, 0, sizeof(out));
	out.attr_valid = VALID_SECS;
	fill_attr(ih->nodeid, &out.attr);
	reply(ih->unique, 0, &out, sizeof(out));
}

static void do_open(struct fuse_in_header *ih)
{
	struct fuse_open_out out;

	if (ih->nodeid != FILE_INO) {
		reply(ih->unique, -EISDIR, NULL, 0);
		return;
	}
	memset(&out, 0, sizeof(out));
	out.fh = 1;
	/* Cached I/O: reads and mmap go through the page cache. */
	out.open_flags = FOPEN_KEEP_CACHE;
	reply(ih->unique, 0, &out, sizeof(out));
}

static void do_read(struct fuse_in_header *ih, const struct fuse_read_in *in)
{
	size_t len = 0;

	if (in->offset < size) {
		len = size - in->offset;
		if (len > in->size)
			len = in->size;
	}
	reply(ih->unique, 0, data + (len ? in->offset : 0), len);
}

/* Answer one request; return 0 when the file system is going away. */
static int serve_one(char *buf, ssize_t n)
{
	struct fuse_in_header *ih = (struct fuse_in_header *)buf;
	void *arg = buf + sizeof(*ih);

	if (n < (ssize_t)sizeof(*ih))
		die("short request");
	switch (ih->opcode) {
	case FUSE_INIT:
		do_init(ih, arg);
		break;
	case FUSE_LOOKUP:
		do_lookup(ih, arg);
		break;
	case FUSE_GETATTR:
		do_getattr(ih);
		break;
	case FUSE_OPEN:
		do_open(ih);
		break;
	case FUSE_READ:
		do_read(ih, arg);
		break;
	case FUSE_RELEASE:
	case FUSE_FLUSH:
		reply(ih->unique, 0, NULL, 0);
		break;
	case FUSE_FORGET:
	case FUSE_BATCH_FORGET:
	case FUSE_INTERRUPT:
		break;			/* no answer expected */
	case FUSE_DESTROY:
		reply(ih->unique, 0, NULL, 0);
		return 0;
	default:
		reply(ih->unique, -ENOSYS, NULL, 0);
		break;
	}
	return 1;
}

static void load(const char *path)
{
	struct stat st;
	int fd = open(path, O_RDONLY);

	if (fd < 0 || fstat(fd, &st))
		die(path);
	size = st.st_size;
	data = malloc(size ? size : 1);
	if (!data || read(fd, data, size) != (ssize_t)size)
		die("read");
	close(fd);
	name = basename(strdup(path));
}

int main(int argc, char **argv)
{
	static char buf[BUF_SIZE];
	char opts[128];
	ssize_t n;

	if (argc != 3) {
		fprintf(stderr, "usage: kpu-fuse MOUNTPOINT FILE\n");
		return 2;
	}
	load(argv[2]);
	fuse_fd = open("/dev/fuse", O_RDWR | O_CLOEXEC);
	if (fuse_fd < 0)
		die("/dev/fuse");
	snprintf(opts, sizeof(opts),
		 "fd=%d,rootmode=40000,user_id=0,group_id=0,allow_other",
		 fuse_fd);
	if (mount("kpu-fuse", argv[1], "fuse", MS_NOSUID | MS_NODEV, opts))
		die("mount");
	for (;;) {
		n = read(fuse_fd, buf, sizeof(buf));
		if (n < 0 && (errno == EINTR || errno == ENOENT))
			continue;
		if (n < 0 && errno == ENODEV)
			break;		/* unmounted */
		if (n < 0)
			die("read /dev/fuse");
		if (!serve_one(buf, n))
			break;
	}
	return 0;
}
