// NVRTC compile of the kernels and the loading of their module.

#include <string.h>

#include "lv_driver.h"

// lv_compile compiles one CUDA C++ source to a CUBIN with the given options:
// create, compile, fetch the log (also on failure) and the CUBIN, destroy.
// out's buffers are malloc'd; the caller frees them.
nvrtcResult lv_compile(const lv_nvrtc *r, const char *src, const char *name,
		const char *const *opts, int nopts, lv_compiled *out, const char **op) {
	nvrtcProgram prog = NULL;
	nvrtcResult res = r->nvrtcCreateProgram(&prog, src, name, 0, NULL, NULL);
	if (res != 0) {
		*op = "nvrtcCreateProgram";
		return res;
	}
	nvrtcResult cres = r->nvrtcCompileProgram(prog, nopts, opts);
	size_t size = 0;
	if (r->nvrtcGetProgramLogSize(prog, &size) == 0 && size > 1) {
		out->log = malloc(size);
		if (out->log != NULL && r->nvrtcGetProgramLog(prog, out->log) == 0) {
			out->log_size = size - 1;
		}
	}
	if (cres != 0) {
		*op = "nvrtcCompileProgram";
		res = cres;
	} else if ((res = r->nvrtcGetCUBINSize(prog, &size)) != 0) {
		*op = "nvrtcGetCUBINSize";
	} else if ((out->cubin = malloc(size > 0 ? size : 1)) == NULL) {
		*op = "malloc";
		res = -1;
	} else if ((res = r->nvrtcGetCUBIN(prog, out->cubin)) != 0) {
		*op = "nvrtcGetCUBIN";
	} else {
		out->cubin_size = size;
	}
	r->nvrtcDestroyProgram(&prog);
	return res;
}

static const lv_sym lv_kernel_syms[] = {
	LV_SYM(lv_module, diag_u8, "lv_diag_u8"),
	LV_SYM(lv_module, diag_u32, "lv_diag_u32"),
	LV_SYM(lv_module, mat_init, "lv_mat_init"),
	LV_SYM(lv_module, mat_u8, "lv_mat_u8"),
	LV_SYM(lv_module, mat_u32, "lv_mat_u32"),
	LV_SYM(lv_module, fast_shared, "lv_fast_shared"),
	LV_SYM(lv_module, fast_global, "lv_fast_global"),
	LV_SYM(lv_module, batch, "lv_batch"),
	LV_SYM(lv_module, pairs, "lv_pairs"),
	LV_SYM(lv_module, windows, "lv_windows"),
};

// lv_module_load retains the primary context of device ordinal for the
// life of the process (so that the module stays loaded between jobs),
// loads the CUBIN image and looks up every kernel. The context is current
// only inside this call.
CUresult lv_module_load(const lv_driver *d, int ordinal, const void *image, lv_module *m, const char **op) {
	LV_TRY("cuDeviceGet", d->cuDeviceGet(&m->dev, ordinal));
	LV_TRY("cuDevicePrimaryCtxRetain", d->cuDevicePrimaryCtxRetain(&m->ctx, m->dev));
	CUresult r = d->cuCtxSetCurrent(m->ctx);
	if (r != 0) {
		*op = "cuCtxSetCurrent";
	} else if ((r = d->cuModuleLoadData(&m->mod, image)) != 0) {
		*op = "cuModuleLoadData";
	} else {
		for (size_t i = 0; i < sizeof lv_kernel_syms / sizeof lv_kernel_syms[0]; i++) {
			CUfunction f;
			if ((r = d->cuModuleGetFunction(&f, m->mod, lv_kernel_syms[i].name)) != 0) {
				*op = "cuModuleGetFunction";
				d->cuModuleUnload(m->mod);
				break;
			}
			memcpy((char *)m + lv_kernel_syms[i].off, &f, sizeof f);
		}
	}
	d->cuCtxSetCurrent(NULL);
	if (r != 0) {
		d->cuDevicePrimaryCtxRelease(m->dev);
	}
	return r;
}
