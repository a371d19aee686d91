/* SPDX-License-Identifier: GPL-2.0 */
/* What the files of the benchmark module share. */
#ifndef _KPB_H
#define _KPB_H

/* kpb_targets.S */
unsigned long kpb_hit_fn(unsigned long x);
unsigned long kpb_opt_fn(unsigned long x);
extern const unsigned long kpb_hit_site, kpb_opt_site;	/* addresses */

/* kpb_nest.c */
void kpb_nest_run(void);

#endif
