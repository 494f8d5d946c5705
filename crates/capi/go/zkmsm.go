// Package zkmsm calls the zkmsm C ABI (crates/capi) through cgo: MSMs on
// BLS12-377, BLS12-381 and BN254 G1 points in the CLI's formats, results as the compressed
// encoding. Build the library first: cargo build --release -p zkmsm-capi
// (this package links target/release/libzkmsm_capi.a statically).
package zkmsm

/*
#cgo CFLAGS: -I${SRCDIR}/../include
#cgo LDFLAGS: ${SRCDIR}/../../../target/release/libzkmsm_capi.a -lm -ldl -lpthread
#include <stdlib.h>
#include "zkmsm.h"
*/
import "C"

import (
	"fmt"
	"runtime"
	"sync"
	"unsafe"
)

// Curve selects BLS12-377, BLS12-381 or BN254: G1, or G2 by Curve.G2
// (BLS12_381.G2()).
type Curve uint32

// G2 is the curve's G2 (points on the twist, twice the bytes of G1's).
func (c Curve) G2() Curve { return c | Curve(C.ZKMSM_G2) }

// Format is the points' encoding.
type Format uint32

const (
	BLS12_377    Curve  = C.ZKMSM_BLS12_377
	BLS12_381    Curve  = C.ZKMSM_BLS12_381
	BN254        Curve  = C.ZKMSM_BN254
	Compressed   Format = C.ZKMSM_COMPRESSED
	Uncompressed Format = C.ZKMSM_UNCOMPRESSED
	EVM          Format = C.ZKMSM_EVM
	Detect       Format = C.ZKMSM_DETECT
	// ScalarsBigEndian, OR-ed into a Format, says the scalars are 32-byte
	// big-endian integers (the EVM's order), e.g. EVM | ScalarsBigEndian.
	ScalarsBigEndian Format = C.ZKMSM_SCALARS_BIG_ENDIAN
)

// Error is a zkmsm error: its code, one-line message, and the index and byte
// offset of the bad record (-1 when none).
type Error struct {
	Code    int
	Message string
	Index   int64
	Offset  int64
}

func (e *Error) Error() string { return fmt.Sprintf("zkmsm: %s (code %d)", e.Message, e.Code) }

// lastError reads the thread's last error; callers hold the OS thread.
func lastError(code C.int32_t) error {
	msg := "unknown error"
	if p := C.zkmsm_last_error(); p != nil {
		msg = C.GoString(p)
	}
	return &Error{Code: int(code), Message: msg, Index: int64(C.zkmsm_last_error_index()), Offset: int64(C.zkmsm_last_error_offset())}
}

func ptr(b []byte) *C.uint8_t {
	if len(b) == 0 {
		return nil
	}
	return (*C.uint8_t)(unsafe.Pointer(&b[0]))
}

// ErrClosed is returned by MSM on a Context after Close.
var ErrClosed = &Error{Code: -1, Message: "the context is closed", Index: -1, Offset: -1}

// Context holds points decoded, validated and prepared once. Its methods may
// be called from many goroutines at once, Close included: Close waits for
// the MSMs running on it, and an MSM after Close returns ErrClosed.
type Context struct {
	mu    sync.RWMutex // read: an MSM or Len using c; write: Close freeing it
	c     *C.ZkmsmContext
	curve Curve
}

// resultSize is the bytes of a result: a compressed point of the curve.
func resultSize(curve Curve) int {
	return int(C.zkmsm_point_size(C.uint32_t(curve), C.ZKMSM_COMPRESSED))
}

// NewContext decodes and prepares points; validate checks the curve and
// subgroup (as the CLI does); precompute > 1 is the fixed-base mode. With
// validate false the points are trusted: for points off the curve or
// outside the subgroup the results are unspecified.
func NewContext(curve Curve, points []byte, format Format, precompute uint32, validate bool) (*Context, error) {
	runtime.LockOSThread() // the last error is per thread
	defer runtime.UnlockOSThread()
	v := C.int32_t(0)
	if validate {
		v = 1
	}
	var c *C.ZkmsmContext
	rc := C.zkmsm_context_new(C.uint32_t(curve), ptr(points), C.size_t(len(points)), C.uint32_t(format), C.uint32_t(precompute), v, &c)
	if rc != C.ZKMSM_OK {
		return nil, lastError(rc)
	}
	ctx := &Context{c: c, curve: curve}
	runtime.SetFinalizer(ctx, (*Context).Close)
	return ctx, nil
}

// Len is the number of points (0 after Close).
func (ctx *Context) Len() int {
	ctx.mu.RLock()
	defer ctx.mu.RUnlock()
	return int(C.zkmsm_context_len(ctx.c))
}

// MSM of 32-byte scalars (little-endian, or big-endian for a context made
// with ScalarsBigEndian), as the compressed encoding.
func (ctx *Context) MSM(scalars []byte) ([]byte, error) {
	ctx.mu.RLock()
	defer ctx.mu.RUnlock()
	if ctx.c == nil {
		return nil, ErrClosed
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	out := make([]byte, C.ZKMSM_RESULT_BYTES)
	rc := C.zkmsm_msm(ctx.c, ptr(scalars), C.size_t(len(scalars)), ptr(out), C.size_t(len(out)))
	runtime.KeepAlive(ctx)
	if rc != C.ZKMSM_OK {
		return nil, lastError(rc)
	}
	return out[:resultSize(ctx.curve)], nil
}

// Close frees the context once the MSMs running on it have returned
// (idempotent; safe from several goroutines).
func (ctx *Context) Close() {
	ctx.mu.Lock()
	defer ctx.mu.Unlock()
	if ctx.c != nil {
		C.zkmsm_context_free(ctx.c)
		ctx.c = nil
		runtime.SetFinalizer(ctx, nil)
	}
}

// MSM is the one-shot form, as `zkmsm msm` reads two files.
func MSM(curve Curve, points []byte, format Format, scalars []byte) ([]byte, error) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	out := make([]byte, C.ZKMSM_RESULT_BYTES)
	rc := C.zkmsm_msm_oneshot(C.uint32_t(curve), ptr(points), C.size_t(len(points)), C.uint32_t(format), ptr(scalars), C.size_t(len(scalars)), ptr(out), C.size_t(len(out)))
	if rc != C.ZKMSM_OK {
		return nil, lastError(rc)
	}
	return out[:resultSize(curve)], nil
}
