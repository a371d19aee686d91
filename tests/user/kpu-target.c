// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * kpu-target: the program user-space probes are tested on (static, so
 * that the initramfs needs nothing else).
 *
 *   kpu-target offsets          print "<symbol> <file offset>" for the
 *                               symbols of kpu-funcs-$ARCH.S
 *   kpu-target add|max|load N   print "ready <pid>", wait for SIGUSR1,
 *                               then call kpu_add(i, 1000) / kpu_max(i,
 *                               N / 2) for i < N and print "sum <s>";
 *                               load dereferences NULL once (SIGSEGV)
 *   kpu-target fork N           as add, but the calls run first in a
 *                               forked child, then in the process itself:
 *                               "child <s>" and "sum <s>"
 *
 * The sums are what the program computes with or without probes; the
 * test compares them with the expected values.
 */
#define _GNU_SOURCE
#include <link.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

long kpu_add(long a, long b);
long kpu_max(long a, long b);
long kpu_load(long *p);
extern char kpu_max_jcc[], kpu_load_insn[], kpu_data[];

static const struct {
	const char *name;
	void *addr;
} syms[] = {
	{ "kpu_add", (void *)kpu_add },
	{ "kpu_max", (void *)kpu_max },
	{ "kpu_max_jcc", kpu_max_jcc },
	{ "kpu_load_insn", kpu_load_insn },
	{ "kpu_data", kpu_data },
};

static volatile sig_atomic_t go;

static void on_usr1(int sig)
{
	go = 1;
}

struct lookup {
	unsigned long addr;
	long off;
};

/* File offset of an address: from the loaded segment that holds it. */
static int phdr_cb(struct dl_phdr_info *info, size_t size, void *data)
{
	struct lookup *l = data;
	int i;

	for (i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		unsigned long start = info->dlpi_addr + ph->p_vaddr;

		if (ph->p_type != PT_LOAD || l->addr < start ||
		    l->addr >= start + ph->p_filesz)
			continue;
		l->off = l->addr - start + ph->p_offset;
		return 1;
	}
	return 0;
}

static long sum_add(long n)
{
	long i, s = 0;

	for (i = 0; i < n; i++)
		s += kpu_add(i, 1000);
	return s;
}

static long sum_max(long n)
{
	long i, s = 0;

	for (i = 0; i < n; i++)
		s += kpu_max(i, n / 2);
	return s;
}

int main(int argc, char **argv)
{
	sigset_t mask, old;
	long n, s = 0;
	size_t i;

	if (argc == 2 && !strcmp(argv[1], "offsets")) {
		for (i = 0; i < sizeof(syms) / sizeof(syms[0]); i++) {
			struct lookup l = { (unsigned long)syms[i].addr, -1 };

			dl_iterate_phdr(phdr_cb, &l);
			printf("%s %ld\n", syms[i].name, l.off);
		}
		return 0;
	}
	if (argc != 3)
		return 2;
	n = atol(argv[2]);

	/* Block SIGUSR1 first, so that none is lost before sigsuspend(). */
	signal(SIGUSR1, on_usr1);
	sigemptyset(&mask);
	sigaddset(&mask, SIGUSR1);
	sigprocmask(SIG_BLOCK, &mask, &old);
	printf("ready %d\n", getpid());
	fflush(stdout);
	while (!go)
		sigsuspend(&old);

	if (!strcmp(argv[1], "add")) {
		s = sum_add(n);
	} else if (!strcmp(argv[1], "max")) {
		s = sum_max(n);
	} else if (!strcmp(argv[1], "load")) {
		long v = 7;

		s = kpu_load(&v);
		printf("loaded %ld\n", s);
		fflush(stdout);
		s = kpu_load(NULL);
	} else if (!strcmp(argv[1], "fork")) {
		pid_t pid = fork();
		int status;

		if (pid == 0) {
			printf("child %ld\n", sum_add(n));
			return 0;
		}
		waitpid(pid, &status, 0);
		fflush(stdout);
		s = sum_add(n);
	} else {
		return 2;
	}
	printf("sum %ld\n", s);
	return 0;
}
