// The kernel jobs: one entry point per kernel, each a whole job (allocate,
// copy in, launch, copy out, synchronise, free) timed in its parts.

#include <string.h>
#include <time.h>

#include "lv_driver.h"

static double lv_now(void) {
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

#define LV_MAX_BUFFERS 12

// lv_job holds what one entry point allocated, freed by lv_job_end
// whatever happened.
typedef struct {
	const lv_driver *d;
	const lv_module *m;
	const char **op;
	CUdeviceptr buf[LV_MAX_BUFFERS];
	int nbuf;
	CUevent ev[4];
	int nev;
	lv_timing *tm;
} lv_job;

static CUresult lv_job_begin(lv_job *j, const lv_driver *d, const lv_module *m, lv_timing *tm, const char **op) {
	memset(j, 0, sizeof *j);
	memset(tm, 0, sizeof *tm);
	j->d = d;
	j->m = m;
	j->op = op;
	j->tm = tm;
	LV_TRY("cuCtxSetCurrent", d->cuCtxSetCurrent(m->ctx));
	for (int i = 0; i < 4; i++) {
		CUresult r = d->cuEventCreate(&j->ev[i], 0);
		if (r != 0) {
			*op = "cuEventCreate";
			return r;
		}
		j->nev++;
	}
	return 0;
}

static CUresult lv_alloc(lv_job *j, CUdeviceptr *p, size_t n) {
	const char **op = j->op;
	if (n == 0) {
		n = 1;
	}
	LV_TRY("cuMemAlloc_v2", j->d->cuMemAlloc(p, n));
	j->buf[j->nbuf++] = *p;
	j->tm->device_bytes += n;
	return 0;
}

static CUresult lv_record(lv_job *j, int i) {
	const char **op = j->op;
	LV_TRY("cuEventRecord", j->d->cuEventRecord(j->ev[i], NULL));
	return 0;
}

// lv_times waits for the last event and reads the three intervals.
static CUresult lv_times(lv_job *j) {
	const char **op = j->op;
	float ms[3];
	LV_TRY("cuEventSynchronize", j->d->cuEventSynchronize(j->ev[3]));
	for (int i = 0; i < 3; i++) {
		LV_TRY("cuEventElapsedTime", j->d->cuEventElapsedTime(&ms[i], j->ev[i], j->ev[i + 1]));
	}
	j->tm->copy_in = ms[0] * 1e-3;
	j->tm->compute = ms[1] * 1e-3;
	j->tm->copy_out = ms[2] * 1e-3;
	return 0;
}

static CUresult lv_launch(lv_job *j, CUfunction f, unsigned grid, unsigned block, unsigned smem, void **args) {
	const char **op = j->op;
	LV_TRY("cuLaunchKernel", j->d->cuLaunchKernel(f, grid, 1, 1, block, 1, 1, smem, NULL, args, NULL));
	j->tm->launches++;
	return 0;
}

// lv_job_end synchronises, frees and destroys everything the job made and
// leaves the context; it returns r, or the first error of its own where r
// is 0.
static CUresult lv_job_end(lv_job *j, CUresult r) {
	const lv_driver *d = j->d;
	CUresult s = d->cuCtxSynchronize();
	if (r == 0 && s != 0) {
		r = s;
		*j->op = "cuCtxSynchronize";
	}
	for (int i = j->nbuf - 1; i >= 0; i--) {
		CUresult f = d->cuMemFree(j->buf[i]);
		if (r == 0 && f != 0) {
			r = f;
			*j->op = "cuMemFree_v2";
		}
	}
	for (int i = 0; i < j->nev; i++) {
		d->cuEventDestroy(j->ev[i]);
	}
	d->cuCtxSetCurrent(NULL);
	return r;
}

// lv_copy_in records event 0, copies n[i] bytes from src[i] to dst[i] for
// each of the count buffers, and records event 1.
static CUresult lv_copy_in(lv_job *j, int count, const CUdeviceptr *dst, const void *const *src, const size_t *n) {
	const char **op = j->op;
	CUresult r = lv_record(j, 0);
	for (int i = 0; r == 0 && i < count; i++) {
		LV_TRY("cuMemcpyHtoD_v2", j->d->cuMemcpyHtoD(dst[i], src[i], n[i]));
	}
	return r != 0 ? r : lv_record(j, 1);
}

// lv_copy_out records event 2 (the computation is over), copies n bytes of
// the result back, records event 3 and reads the three intervals.
static CUresult lv_copy_out(lv_job *j, void *dst, CUdeviceptr src, size_t n) {
	const char **op = j->op;
	CUresult r = lv_record(j, 2);
	if (r != 0) {
		return r;
	}
	LV_TRY("cuMemcpyDtoH_v2", j->d->cuMemcpyDtoH(dst, src, n));
	if ((r = lv_record(j, 3)) != 0) {
		return r;
	}
	return lv_times(j);
}

static unsigned lv_blocks(long long cells, int block) {
	return (unsigned)((cells + block - 1) / block);
}

// lv_run_diag: cuda-diagonal. a, b are m and n symbols of sym bytes each.
CUresult lv_run_diag(const lv_driver *d, const lv_module *m, const void *a, const void *b, int la, int lb, int sym,
		int block, volatile int *cancel, int *dist, lv_timing *tm, const char **op) {
	lv_job j;
	CUresult r = lv_job_begin(&j, d, m, tm, op);
	CUdeviceptr da, db, fr[3];
	double t0 = lv_now();
	if (r == 0 && (r = lv_alloc(&j, &da, (size_t)la * sym)) == 0 && (r = lv_alloc(&j, &db, (size_t)lb * sym)) == 0) {
		for (int i = 0; i < 3 && r == 0; i++) {
			r = lv_alloc(&j, &fr[i], ((size_t)la + 1) * sizeof(int));
		}
	}
	tm->alloc = lv_now() - t0;
	tm->threads = block;
	if (r == 0) {
		CUdeviceptr dst[] = {da, db};
		const void *src[] = {a, b};
		size_t n[] = {(size_t)la * sym, (size_t)lb * sym};
		r = lv_copy_in(&j, 2, dst, src, n);
	}
	CUfunction f = sym == 1 ? m->diag_u8 : m->diag_u32;
	CUdeviceptr p2 = fr[0], p1 = fr[1], cur = fr[2];
	for (int diag = 0; r == 0 && diag <= la + lb; diag++) {
		int lo = diag > lb ? diag - lb : 0, hi = diag < la ? diag : la, cells = hi - lo + 1;
		void *args[] = {&da, &db, &diag, &lo, &cells, &p2, &p1, &cur};
		unsigned grid = lv_blocks(cells, block);
		if (grid > tm->blocks) {
			tm->blocks = grid;
		}
		r = lv_launch(&j, f, grid, block, 0, args);
		CUdeviceptr old = p2;
		p2 = p1;
		p1 = cur;
		cur = old;
		if ((diag & 1023) == 0 && *cancel) {
			r = LV_CANCELED;
		}
	}
	if (r == 0) {
		r = lv_copy_out(&j, dist, p1 + (size_t)la * sizeof(int), sizeof(int));
	}
	return lv_job_end(&j, r);
}

// lv_run_matrix: cuda-matrix. The allocation and initialisation of the
// matrix (first row and column) are timed together as the allocation.
CUresult lv_run_matrix(const lv_driver *d, const lv_module *m, const void *a, const void *b, int la, int lb, int sym,
		int block, volatile int *cancel, int *dist, lv_timing *tm, const char **op) {
	lv_job j;
	CUresult r = lv_job_begin(&j, d, m, tm, op);
	CUdeviceptr da, db, h;
	long long w = (long long)lb + 1;
	size_t cells = ((size_t)la + 1) * (size_t)w;
	double t0 = lv_now();
	if (r == 0 && (r = lv_alloc(&j, &da, (size_t)la * sym)) == 0 && (r = lv_alloc(&j, &db, (size_t)lb * sym)) == 0) {
		r = lv_alloc(&j, &h, cells * sizeof(int));
	}
	if (r == 0) {
		void *args[] = {&h, &la, &lb};
		int side = (la > lb ? la : lb) + 1;
		r = lv_launch(&j, m->mat_init, lv_blocks(side, block), block, 0, args);
	}
	if (r == 0 && (r = d->cuCtxSynchronize()) != 0) {
		*op = "cuCtxSynchronize";
	}
	tm->alloc = lv_now() - t0;
	tm->threads = block;
	if (r == 0) {
		CUdeviceptr dst[] = {da, db};
		const void *src[] = {a, b};
		size_t n[] = {(size_t)la * sym, (size_t)lb * sym};
		r = lv_copy_in(&j, 2, dst, src, n);
	}
	CUfunction f = sym == 1 ? m->mat_u8 : m->mat_u32;
	for (int diag = 2; r == 0 && diag <= la + lb; diag++) {
		int lo = diag - lb > 1 ? diag - lb : 1, hi = diag - 1 < la ? diag - 1 : la, n = hi - lo + 1;
		long long start = (long long)lo * w + (diag - lo);
		void *args[] = {&da, &db, &h, &lb, &start, &n};
		unsigned grid = lv_blocks(n, block);
		if (grid > tm->blocks) {
			tm->blocks = grid;
		}
		r = lv_launch(&j, f, grid, block, 0, args);
		if ((diag & 1023) == 0 && *cancel) {
			r = LV_CANCELED;
		}
	}
	if (r == 0) {
		r = lv_copy_out(&j, dist, h + cells * sizeof(int) - sizeof(int), sizeof(int));
	}
	return lv_job_end(&j, r);
}

// lv_run_fast: cuda-fast, one persistent launch of no more blocks than the
// device holds at once (the schedule needs every waited-for warp resident).
CUresult lv_run_fast(const lv_driver *d, const lv_module *m, const unsigned *in_codes, const void *in_peq,
		const lv_fast_args *in, long long *score,
		lv_timing *tm, const char **op) {
	lv_job j;
	CUresult r = lv_job_begin(&j, d, m, tm, op);
	CUfunction f = in->shared ? m->fast_shared : m->fast_global;
	int per_sm = 0;
	if (r == 0 && (r = d->cuOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, f, in->block, in->smem)) != 0) {
		*op = "cuOccupancyMaxActiveBlocksPerMultiprocessor";
	}
	if (r == 0 && per_sm < 1) {
		*op = "cuOccupancyMaxActiveBlocksPerMultiprocessor";
		r = 701; // CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES: not one block fits
	}
	int warps_per_block = in->block / 32;
	long long want = ((long long)in->bands + warps_per_block - 1) / warps_per_block;
	long long fit = (long long)per_sm * in->sms;
	unsigned grid = (unsigned)(want < fit ? want : fit);
	CUdeviceptr codes, peq, boundary, progress, result;
	double t0 = lv_now();
	if (r == 0 && (r = lv_alloc(&j, &codes, (size_t)in->n * 4)) == 0 && (r = lv_alloc(&j, &peq, in->peq_bytes)) == 0 &&
			(r = lv_alloc(&j, &boundary, (size_t)in->n)) == 0 && (r = lv_alloc(&j, &progress, (size_t)in->bands * 4)) == 0) {
		r = lv_alloc(&j, &result, 8);
	}
	tm->alloc = lv_now() - t0;
	tm->threads = in->block;
	tm->blocks = grid;
	if (r == 0 && ((r = d->cuMemsetD8(progress, 0, (size_t)in->bands * 4)) != 0 || (r = d->cuMemsetD8(result, 0, 8)) != 0)) {
		*op = "cuMemsetD8_v2";
	}
	if (r == 0) {
		CUdeviceptr dst[] = {codes, peq};
		const void *src[] = {in_codes, in_peq};
		size_t n[] = {(size_t)in->n * 4, in->peq_bytes};
		r = lv_copy_in(&j, 2, dst, src, n);
	}
	if (r == 0) {
		int n = in->n, mm = in->m, sigma = in->sigma, bands = in->bands, chunk = in->chunk;
		void *args[] = {&codes, &n, &mm, &peq, &sigma, &bands, &boundary, &progress, &chunk, &result};
		r = lv_launch(&j, f, grid, in->block, (unsigned)in->smem, args);
	}
	if (r == 0) {
		r = lv_copy_out(&j, score, result, 8);
	}
	return lv_job_end(&j, r);
}

CUresult lv_run_batch(const lv_driver *d, const lv_module *m, LV_BATCH_IN, const lv_batch_args *in, int *out,
		lv_timing *tm, const char **op) {
	lv_job j;
	CUresult r = lv_job_begin(&j, d, m, tm, op);
	int per_sm = 0;
	size_t smem = (size_t)(in->block / 32) * in->chunk;
	if (r == 0 && (r = d->cuOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, m->batch, in->block, smem)) != 0) {
		*op = "cuOccupancyMaxActiveBlocksPerMultiprocessor";
	}
	int warps_per_block = in->block / 32;
	long long want = ((long long)in->pairs + warps_per_block - 1) / warps_per_block;
	long long fit = (long long)(per_sm > 0 ? per_sm : 1) * in->sms;
	unsigned grid = (unsigned)(want < fit ? want : fit);
	long long warps = (long long)grid * warps_per_block;
	long long stride = ((long long)in->max_n + 127) / 128 * 128;
	size_t np = (size_t)in->pairs;
	CUdeviceptr codes, b_off, b_len, peq, peq_off, sigma, a_len, scratch, dout;
	double t0 = lv_now();
	if (r == 0 && (r = lv_alloc(&j, &codes, in->codes_len * 4)) == 0 && (r = lv_alloc(&j, &b_off, np * 8)) == 0 &&
			(r = lv_alloc(&j, &b_len, np * 4)) == 0 && (r = lv_alloc(&j, &peq, in->peq_bytes)) == 0 &&
			(r = lv_alloc(&j, &peq_off, np * 8)) == 0 && (r = lv_alloc(&j, &sigma, np * 4)) == 0 &&
			(r = lv_alloc(&j, &a_len, np * 4)) == 0 && (r = lv_alloc(&j, &scratch, (size_t)(warps * stride))) == 0) {
		r = lv_alloc(&j, &dout, np * 4);
	}
	tm->alloc = lv_now() - t0;
	tm->threads = in->block;
	tm->blocks = grid;
	if (r == 0) {
		CUdeviceptr dst[] = {codes, b_off, b_len, peq, peq_off, sigma, a_len};
		const void *src[] = {in_codes, in_b_off, in_b_len, in_peq, in_peq_off, in_sigma, in_a_len};
		size_t n[] = {in->codes_len * 4, np * 8, np * 4, in->peq_bytes, np * 8, np * 4, np * 4};
		r = lv_copy_in(&j, 7, dst, src, n);
	}
	if (r == 0) {
		int pairs = in->pairs, chunk = in->chunk;
		void *args[] = {&codes, &b_off, &b_len, &peq, &peq_off, &sigma, &a_len, &pairs, &scratch, &stride, &chunk, &dout};
		r = lv_launch(&j, m->batch, grid, in->block, (unsigned)smem, args);
	}
	if (r == 0) {
		r = lv_copy_out(&j, out, dout, np * 4);
	}
	return lv_job_end(&j, r);
}

// lv_pairs_job: a many-pairs job, held between calls. Its lv_job's op and
// timing point into the struct itself (C memory), and each call reports
// the failing call's name through its own op.
struct lv_pairs_job {
	lv_job j;
	lv_timing tm;
	const char *op;
	CUdeviceptr codes, code_off, len, peq, peq_off, scratch, out;
	unsigned grid;
	int block, chunk, b_base, nb, tri;
	size_t smem;
	long long stride;
	long long pending; // distances of the tile in flight; -1: none
};

// lv_pairs_open allocates the job's buffers, copies every string's codes
// and match table in once and sizes the launch: no more blocks than the
// device holds at once, fewer where the tile has fewer pairs or the warps'
// scratch rows would pass 1 GiB. On failure everything is freed and *job
// is NULL.
CUresult lv_pairs_open(const lv_driver *d, const lv_module *m, const unsigned *in_codes, const long long *in_code_off,
		const int *in_len, const void *in_peq, const long long *in_peq_off, const lv_pairs_args *in, lv_pairs_job **job,
		const char **op) {
	lv_pairs_job *p = calloc(1, sizeof *p);
	*job = NULL;
	if (p == NULL) {
		*op = "calloc";
		return 2; // CUDA_ERROR_OUT_OF_MEMORY
	}
	p->pending = -1;
	lv_job *j = &p->j;
	CUresult r = lv_job_begin(j, d, m, &p->tm, &p->op);
	p->block = in->block;
	p->chunk = in->chunk;
	p->b_base = in->b_base;
	p->nb = in->nb;
	p->tri = in->tri;
	int warps_per_block = in->block / 32, per_sm = 0;
	p->smem = (size_t)warps_per_block * in->chunk;
	if (r == 0 && (r = d->cuOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, m->pairs, in->block, p->smem)) != 0) {
		p->op = "cuOccupancyMaxActiveBlocksPerMultiprocessor";
	}
	long long want = ((long long)in->tile_rows * in->nb + warps_per_block - 1) / warps_per_block;
	long long fit = (long long)(per_sm > 0 ? per_sm : 1) * in->sms;
	long long grid = want < fit ? want : fit;
	p->stride = ((long long)in->max_len + 127) / 128 * 128;
	if (p->stride > 0 && grid * warps_per_block * p->stride > (1LL << 30)) {
		grid = (1LL << 30) / p->stride / warps_per_block;
	}
	p->grid = (unsigned)(grid > 0 ? grid : 1);
	size_t ns = (size_t)in->strings;
	double t0 = lv_now();
	if (r == 0 && (r = lv_alloc(j, &p->codes, in->codes_len * 4)) == 0 && (r = lv_alloc(j, &p->code_off, ns * 8)) == 0 &&
			(r = lv_alloc(j, &p->len, ns * 4)) == 0 && (r = lv_alloc(j, &p->peq, in->peq_words * 4)) == 0 &&
			(r = lv_alloc(j, &p->peq_off, ns * 8)) == 0 &&
			(r = lv_alloc(j, &p->scratch, (size_t)((long long)p->grid * warps_per_block * p->stride))) == 0) {
		r = lv_alloc(j, &p->out, (size_t)in->tile_rows * in->nb * 4);
	}
	p->tm.alloc = lv_now() - t0;
	p->tm.threads = in->block;
	p->tm.blocks = p->grid;
	if (r == 0) {
		CUdeviceptr dst[] = {p->codes, p->code_off, p->len, p->peq, p->peq_off};
		const void *src[] = {in_codes, in_code_off, in_len, in_peq, in_peq_off};
		size_t n[] = {in->codes_len * 4, ns * 8, ns * 4, in->peq_words * 4, ns * 8};
		r = lv_copy_in(j, 5, dst, src, n);
	}
	float ms = 0;
	if (r == 0 && (r = d->cuEventSynchronize(j->ev[1])) != 0) {
		p->op = "cuEventSynchronize";
	}
	if (r == 0 && (r = d->cuEventElapsedTime(&ms, j->ev[0], j->ev[1])) != 0) {
		p->op = "cuEventElapsedTime";
	}
	p->tm.copy_in = ms * 1e-3;
	if (r != 0) {
		r = lv_job_end(j, r);
		*op = p->op;
		free(p);
		return r;
	}
	d->cuCtxSetCurrent(NULL);
	*job = p;
	return 0;
}

// lv_pairs_next waits for the tile in flight, if any, and copies its count
// distances to out; then it launches the tile of rows queries from first,
// if rows > 0, and returns without waiting for it: the host reads one
// tile while the device computes the next.
CUresult lv_pairs_next(lv_pairs_job *p, int *out, long long count, int first, int rows, const char **op) {
	lv_job *j = &p->j;
	const lv_driver *d = j->d;
	LV_TRY("cuCtxSetCurrent", d->cuCtxSetCurrent(j->m->ctx));
	CUresult r = 0;
	if (p->pending >= 0) {
		// The kernel's time runs from event 1 to 2, the copy's from 0
		// (the copy in's, long done, recorded again) to 3: the host may
		// have been busy between the tile's end and its copy.
		float ms[2] = {0, 0};
		if (count != p->pending) {
			p->op = "lv_pairs_next";
			r = 1; // CUDA_ERROR_INVALID_VALUE: the host asks for another tile's size
		} else if ((r = lv_record(j, 0)) == 0 && (r = d->cuMemcpyDtoH(out, p->out, (size_t)count * 4)) != 0) {
			p->op = "cuMemcpyDtoH_v2";
		} else if (r == 0 && (r = lv_record(j, 3)) == 0) {
			if ((r = d->cuEventSynchronize(j->ev[3])) != 0) {
				p->op = "cuEventSynchronize";
			} else if ((r = d->cuEventElapsedTime(&ms[0], j->ev[1], j->ev[2])) != 0 ||
					(r = d->cuEventElapsedTime(&ms[1], j->ev[0], j->ev[3])) != 0) {
				p->op = "cuEventElapsedTime";
			}
		}
		p->tm.compute += ms[0] * 1e-3;
		p->tm.copy_out += ms[1] * 1e-3;
		p->pending = -1;
	}
	if (r == 0 && rows > 0) {
		void *args[] = {&p->codes, &p->code_off, &p->len, &p->peq, &p->peq_off, &p->b_base, &p->nb, &p->tri,
			&first, &rows, &p->scratch, &p->stride, &p->chunk, &p->out};
		if ((r = lv_record(j, 1)) == 0 && (r = lv_launch(j, j->m->pairs, p->grid, p->block, (unsigned)p->smem, args)) == 0 &&
				(r = lv_record(j, 2)) == 0) {
			p->pending = (long long)rows * p->nb;
		}
	}
	d->cuCtxSetCurrent(NULL);
	if (r != 0) {
		*op = p->op;
	}
	return r;
}

// lv_pairs_close waits for the device, frees the job whatever happened and
// hands back its timing; it returns r, or the first error of its own where
// r is 0.
CUresult lv_pairs_close(lv_pairs_job *p, CUresult r, lv_timing *tm, const char **op) {
	lv_job *j = &p->j;
	CUresult s = j->d->cuCtxSetCurrent(j->m->ctx);
	if (s != 0 && r == 0) {
		r = s;
		p->op = "cuCtxSetCurrent";
	}
	r = lv_job_end(j, r);
	*tm = p->tm;
	if (r != 0) {
		*op = p->op;
	}
	free(p);
	return r;
}

// lv_run_windows: the window count of report 003 over count positions of
// a chunk of len bytes.
CUresult lv_run_windows(const lv_driver *d, const lv_module *m, const void *text, long long len, long long count,
		const void *peq, int words, int plen, int k, unsigned long long *matches, lv_timing *tm, const char **op) {
	lv_job j;
	CUresult r = lv_job_begin(&j, d, m, tm, op);
	CUdeviceptr dtext, dpeq, result;
	double t0 = lv_now();
	size_t peq_bytes = (size_t)256 * words * 8;
	if (r == 0 && (r = lv_alloc(&j, &dtext, (size_t)len)) == 0 && (r = lv_alloc(&j, &dpeq, peq_bytes)) == 0) {
		r = lv_alloc(&j, &result, 8);
	}
	tm->alloc = lv_now() - t0;
	int block = 256;
	unsigned grid = lv_blocks(count, block);
	tm->threads = block;
	tm->blocks = grid;
	if (r == 0 && (r = d->cuMemsetD8(result, 0, 8)) != 0) {
		*op = "cuMemsetD8_v2";
	}
	if (r == 0) {
		CUdeviceptr dst[] = {dtext, dpeq};
		const void *src[] = {text, peq};
		size_t n[] = {(size_t)len, peq_bytes};
		r = lv_copy_in(&j, 2, dst, src, n);
	}
	if (r == 0) {
		void *args[] = {&dtext, &len, &count, &dpeq, &plen, &words, &k, &result};
		r = lv_launch(&j, m->windows, grid, block, (unsigned)peq_bytes, args);
	}
	if (r == 0) {
		r = lv_copy_out(&j, matches, result, 8);
	}
	return lv_job_end(&j, r);
}

void lv_set_flag(volatile int *flag) {
	__atomic_store_n(flag, 1, __ATOMIC_SEQ_CST);
}
