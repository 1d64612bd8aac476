/* workload N: a guest program whose user-mode instruction count is known exactly.
 * No libc, so nothing but this file runs in user mode between exec and exit:
 *
 *   instructions:u = 10*N + 5*D + 10     (D = number of decimal digits in N)
 *
 *   4      prologue (ldr, mov, mov, cbz)
 *   5*D+2  parsing argv[1] (5 per digit, 2 for the terminating NUL)
 *   1      the cbz that skips the loop when N is 0
 *   10*N   the loop body: 8 adds, subs, b.ne
 *   3      exit (mov, mov, svc)
 *
 * check-log.awk holds the same formula; the guest probe measures it against the PMU. */

	.text
	.global	_start
_start:
	ldr	x1, [sp, #16]		/* argv[1]: argc is at [sp], argv[0] at [sp, #8] */
	mov	x0, #0			/* N */
	mov	x3, #10
	cbz	x1, exit		/* no argument: run nothing (count 4 + 3) */

parse:					/* N = N * 10 + digit; no validation: test input */
	ldrb	w2, [x1], #1
	cbz	w2, start
	sub	w2, w2, #'0'
	madd	x0, x0, x3, x2
	b	parse

start:
	cbz	x0, exit
loop:					/* 10 instructions per iteration */
	add	x4, x4, #1
	add	x5, x5, #3
	add	x6, x6, x4
	add	x7, x7, x5
	add	x9, x9, #1
	add	x10, x10, #3
	add	x11, x11, x9
	add	x12, x12, x10
	subs	x0, x0, #1
	b.ne	loop

exit:
	mov	x0, #0
	mov	x8, #93			/* __NR_exit */
	svc	#0
