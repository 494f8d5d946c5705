package main

// G2 runners: gnark-crypto's G2Affine.MultiExp on the arkworks uncompressed
// G2 encodings that `zkmsm gen --group g2 --point-format uncompressed`
// writes (192 bytes a point on the BLS curves, 128 on BN254):
//
//   - BLS12-381 (Zcash): x.c1 || x.c0 || y.c1 || y.c0, each 48 bytes
//     big-endian, flags in the top three bits of the first byte;
//   - BLS12-377 and BN254: x.c0 || x.c1 || y.c0 || y.c1, each little-endian,
//     flags in the top two bits of the last byte.
//
// The result is printed in arkworks' compressed G2 encoding: x alone, with
// the flag "y is the larger of y and -y" (Fp2 elements compared by c1, then
// c0), so the harness compares it byte for byte with the other runners.

import (
	"encoding/hex"

	"github.com/consensys/gnark-crypto/ecc"
	bls377 "github.com/consensys/gnark-crypto/ecc/bls12-377"
	fp377 "github.com/consensys/gnark-crypto/ecc/bls12-377/fp"
	fr377 "github.com/consensys/gnark-crypto/ecc/bls12-377/fr"
	bls381 "github.com/consensys/gnark-crypto/ecc/bls12-381"
	fr381 "github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
	bn254 "github.com/consensys/gnark-crypto/ecc/bn254"
	fp254 "github.com/consensys/gnark-crypto/ecc/bn254/fp"
	fr254 "github.com/consensys/gnark-crypto/ecc/bn254/fr"
)

// leElements splits b into k little-endian elements of w bytes, returned
// big-endian (gnark's SetBytesCanonical order), the flag bits of the last
// byte cleared.
func leElements(b []byte, w, k int) [][]byte {
	out := make([][]byte, k)
	for j := 0; j < k; j++ {
		out[j] = reversed(b[w*j : w*(j+1)])
	}
	out[k-1][0] &= 0x3f
	return out
}

// larger reports whether the Fp2 element (c0, c1) is the larger of itself
// and its negation, arkworks' order: c1 decides unless it is zero.
func larger(c0Largest, c1Largest, c1Zero bool) bool {
	if c1Zero {
		return c0Largest
	}
	return c1Largest
}

// compressedLE is arkworks' compressed G2 encoding on BLS12-377 and BN254
// (x0, x1 big-endian, as gnark gives them): x.c0 || x.c1 little-endian,
// bit 7 of the last byte "y is the larger", bit 6 the point at infinity.
func compressedLE(x0, x1 []byte, infinity, yLarger bool) string {
	out := make([]byte, len(x0)+len(x1))
	switch {
	case infinity:
		out[len(out)-1] = 0x40
	default:
		copy(out, reversed(x0))
		copy(out[len(x0):], reversed(x1))
		if yLarger {
			out[len(out)-1] |= 0x80
		}
	}
	return hex.EncodeToString(out)
}

func g2run377(pts []byte, sc [][]byte, repeat int) (string, float64, []float64) {
	const size = 4 * fp377.Bytes
	n := len(sc)
	points := make([]bls377.G2Affine, n)
	for i := 0; i < n; i++ {
		b := pts[size*i : size*(i+1)]
		if b[size-1]&0x40 != 0 {
			die("point %d is the point at infinity", i)
		}
		e := leElements(b, fp377.Bytes, 4)
		for j, dst := range []*fp377.Element{&points[i].X.A0, &points[i].X.A1, &points[i].Y.A0, &points[i].Y.A1} {
			if err := dst.SetBytesCanonical(e[j]); err != nil {
				die("point %d: element %d: %v", i, j, err)
			}
		}
		if !points[i].IsOnCurve() {
			die("point %d is not on the twist", i)
		}
	}
	scalars := make([]fr377.Element, n)
	for i := range scalars {
		if err := scalars[i].SetBytesCanonical(sc[i]); err != nil {
			die("scalar %d: %v", i, err)
		}
	}
	var res bls377.G2Affine
	med, runs := timeRuns(repeat, func() {
		if _, err := res.MultiExp(points, scalars, ecc.MultiExpConfig{}); err != nil {
			die("MultiExp: %v", err)
		}
	})
	x0, x1 := res.X.A0.Bytes(), res.X.A1.Bytes()
	y := larger(res.Y.A0.LexicographicallyLargest(), res.Y.A1.LexicographicallyLargest(), res.Y.A1.IsZero())
	return compressedLE(x0[:], x1[:], res.IsInfinity(), y), med, runs
}

func g2run381(pts []byte, sc [][]byte, repeat int) (string, float64, []float64) {
	const w, size = 48, 192
	n := len(sc)
	points := make([]bls381.G2Affine, n)
	for i := 0; i < n; i++ {
		b := pts[size*i : size*(i+1)]
		if b[0]&0x40 != 0 {
			die("point %d is the point at infinity", i)
		}
		x1 := append([]byte(nil), b[0:w]...)
		x1[0] &= 0x1f // the Zcash flags
		parts := [][]byte{b[w : 2*w], x1, b[3*w : 4*w], b[2*w : 3*w]}
		if err := points[i].X.A0.SetBytesCanonical(parts[0]); err != nil {
			die("point %d: x.c0: %v", i, err)
		}
		if err := points[i].X.A1.SetBytesCanonical(parts[1]); err != nil {
			die("point %d: x.c1: %v", i, err)
		}
		if err := points[i].Y.A0.SetBytesCanonical(parts[2]); err != nil {
			die("point %d: y.c0: %v", i, err)
		}
		if err := points[i].Y.A1.SetBytesCanonical(parts[3]); err != nil {
			die("point %d: y.c1: %v", i, err)
		}
		if !points[i].IsOnCurve() {
			die("point %d is not on the twist", i)
		}
	}
	scalars := make([]fr381.Element, n)
	for i := range scalars {
		if err := scalars[i].SetBytesCanonical(sc[i]); err != nil {
			die("scalar %d: %v", i, err)
		}
	}
	var res bls381.G2Affine
	med, runs := timeRuns(repeat, func() {
		if _, err := res.MultiExp(points, scalars, ecc.MultiExpConfig{}); err != nil {
			die("MultiExp: %v", err)
		}
	})
	// gnark's compressed BLS12-381 G2 encoding is the Zcash one, arkworks'
	out := res.Bytes()
	return hex.EncodeToString(out[:]), med, runs
}

func g2run254(pts []byte, sc [][]byte, repeat int) (string, float64, []float64) {
	const size = 4 * fp254.Bytes
	n := len(sc)
	points := make([]bn254.G2Affine, n)
	for i := 0; i < n; i++ {
		b := pts[size*i : size*(i+1)]
		if b[size-1]&0x40 != 0 {
			continue // the point at infinity: gnark's is (0, 0), the zero value
		}
		e := leElements(b, fp254.Bytes, 4)
		for j, dst := range []*fp254.Element{&points[i].X.A0, &points[i].X.A1, &points[i].Y.A0, &points[i].Y.A1} {
			if err := dst.SetBytesCanonical(e[j]); err != nil {
				die("point %d: element %d: %v", i, j, err)
			}
		}
		if !points[i].IsOnCurve() {
			die("point %d is not on the twist", i)
		}
	}
	scalars := make([]fr254.Element, n)
	for i := range scalars {
		if err := scalars[i].SetBytesCanonical(sc[i]); err != nil {
			die("scalar %d: %v", i, err)
		}
	}
	var res bn254.G2Affine
	med, runs := timeRuns(repeat, func() {
		if _, err := res.MultiExp(points, scalars, ecc.MultiExpConfig{}); err != nil {
			die("MultiExp: %v", err)
		}
	})
	x0, x1 := res.X.A0.Bytes(), res.X.A1.Bytes()
	y := larger(res.Y.A0.LexicographicallyLargest(), res.Y.A1.LexicographicallyLargest(), res.Y.A1.IsZero())
	return compressedLE(x0[:], x1[:], res.IsInfinity(), y), med, runs
}
