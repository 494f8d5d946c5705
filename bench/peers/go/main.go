// Command peer-gnark runs gnark-crypto's G1 or G2 MultiExp on inputs written
// by `zkmsm gen` (or the Rust peer runner) and prints one JSON line.
//
//	peer-gnark --curve bls12-377|bls12-381|bn254 [--group g1|g2] --points P --scalars S [--repeat R]
//
// The G2 encodings are described in g2.go.
// P holds n uncompressed points in the arkworks canonical encoding (96 bytes
// each for the BLS curves: BLS12-377 little-endian x || y with flags in the
// top bits of the last byte; BLS12-381 big-endian Zcash x || y with flags in
// the top bits of the first byte; 64 bytes each for BN254: little-endian
// x || y with flags in the top two bits of the last byte). S holds n 32-byte little-endian scalars below r. The result is
// printed as the hex of the arkworks compressed encoding, so the harness can
// compare it byte for byte with the other implementations.
package main

import (
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"runtime"
	"sort"
	"time"

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

// Uncompressed point sizes: 96 bytes on the BLS curves, 64 on BN254.
const pointBytes = 96
const pointBytes254 = 64

type report struct {
	Impl    string    `json:"impl"`
	Curve   string    `json:"curve"`
	N       int       `json:"n"`
	Threads int       `json:"threads"`
	Result  string    `json:"result"`
	MsmMs   float64   `json:"msm_ms"`
	RunsMs  []float64 `json:"runs_ms"`
}

func die(format string, a ...any) {
	fmt.Fprintf(os.Stderr, "peer-gnark: "+format+"\n", a...)
	os.Exit(1)
}

func reversed(b []byte) []byte {
	out := make([]byte, len(b))
	for i := range b {
		out[len(b)-1-i] = b[i]
	}
	return out
}

// scalarsBE turns 32-byte little-endian scalars into big-endian byte strings.
func scalarsBE(raw []byte) [][]byte {
	if len(raw)%32 != 0 {
		die("scalar file length %d is not a multiple of 32", len(raw))
	}
	out := make([][]byte, len(raw)/32)
	for i := range out {
		out[i] = reversed(raw[32*i : 32*i+32])
	}
	return out
}

// timeRuns runs f once to warm up, then `repeat` timed times; returns the
// median and all timings in milliseconds.
func timeRuns(repeat int, f func()) (float64, []float64) {
	f()
	runs := make([]float64, repeat)
	for i := range runs {
		t0 := time.Now()
		f()
		runs[i] = float64(time.Since(t0).Nanoseconds()) / 1e6
	}
	s := append([]float64(nil), runs...)
	sort.Float64s(s)
	med := s[len(s)/2]
	if len(s)%2 == 0 {
		med = (s[len(s)/2-1] + s[len(s)/2]) / 2
	}
	return med, runs
}

func run377(pts []byte, sc [][]byte, repeat int) (string, float64, []float64) {
	n := len(sc)
	points := make([]bls377.G1Affine, n)
	for i := 0; i < n; i++ {
		b := pts[pointBytes*i : pointBytes*(i+1)]
		x := reversed(b[0:48])
		y := reversed(b[48:96])
		y[0] &= 0x3f // flags live in the top two bits of the last LE byte
		if err := points[i].X.SetBytesCanonical(x); err != nil {
			die("point %d: x: %v", i, err)
		}
		if err := points[i].Y.SetBytesCanonical(y); err != nil {
			die("point %d: y: %v", i, err)
		}
		if !points[i].IsOnCurve() {
			die("point %d is not on the curve", i)
		}
	}
	scalars := make([]fr377.Element, n)
	for i := range scalars {
		if err := scalars[i].SetBytesCanonical(sc[i]); err != nil {
			die("scalar %d: %v", i, err)
		}
	}
	var res bls377.G1Affine
	med, runs := timeRuns(repeat, func() {
		if _, err := res.MultiExp(points, scalars, ecc.MultiExpConfig{}); err != nil {
			die("MultiExp: %v", err)
		}
	})
	// arkworks' BLS12-377 compressed encoding: x little-endian, bit 7 of the
	// last byte = y is the larger root, bit 6 = point at infinity.
	var out [fp377.Bytes]byte
	if res.IsInfinity() {
		out[fp377.Bytes-1] = 0x40
	} else {
		xb := res.X.Bytes()
		copy(out[:], reversed(xb[:]))
		if res.Y.LexicographicallyLargest() {
			out[fp377.Bytes-1] |= 0x80
		}
	}
	return hex.EncodeToString(out[:]), med, runs
}

func run381(pts []byte, sc [][]byte, repeat int) (string, float64, []float64) {
	n := len(sc)
	points := make([]bls381.G1Affine, n)
	for i := 0; i < n; i++ {
		b := pts[pointBytes*i : pointBytes*(i+1)]
		if b[0]&0x40 != 0 {
			die("point %d is the point at infinity", i)
		}
		x := append([]byte(nil), b[0:48]...)
		x[0] &= 0x1f // Zcash flags live in the top three bits of the first byte
		if err := points[i].X.SetBytesCanonical(x); err != nil {
			die("point %d: x: %v", i, err)
		}
		if err := points[i].Y.SetBytesCanonical(b[48:96]); err != nil {
			die("point %d: y: %v", i, err)
		}
		if !points[i].IsOnCurve() {
			die("point %d is not on the curve", i)
		}
	}
	scalars := make([]fr381.Element, n)
	for i := range scalars {
		if err := scalars[i].SetBytesCanonical(sc[i]); err != nil {
			die("scalar %d: %v", i, err)
		}
	}
	var res bls381.G1Affine
	med, runs := timeRuns(repeat, func() {
		if _, err := res.MultiExp(points, scalars, ecc.MultiExpConfig{}); err != nil {
			die("MultiExp: %v", err)
		}
	})
	// gnark's compressed encoding for BLS12-381 is the Zcash one, which is
	// also arkworks'.
	out := res.Bytes()
	return hex.EncodeToString(out[:]), med, runs
}

func run254(pts []byte, sc [][]byte, repeat int) (string, float64, []float64) {
	n := len(sc)
	points := make([]bn254.G1Affine, n)
	for i := 0; i < n; i++ {
		b := pts[pointBytes254*i : pointBytes254*(i+1)]
		if b[pointBytes254-1]&0x40 != 0 {
			continue // the point at infinity: gnark's is (0, 0), the zero value
		}
		x := reversed(b[0:32])
		y := reversed(b[32:64])
		y[0] &= 0x3f // flags live in the top two bits of the last LE byte
		if err := points[i].X.SetBytesCanonical(x); err != nil {
			die("point %d: x: %v", i, err)
		}
		if err := points[i].Y.SetBytesCanonical(y); err != nil {
			die("point %d: y: %v", i, err)
		}
		if !points[i].IsOnCurve() {
			die("point %d is not on the curve", i)
		}
	}
	scalars := make([]fr254.Element, n)
	for i := range scalars {
		if err := scalars[i].SetBytesCanonical(sc[i]); err != nil {
			die("scalar %d: %v", i, err)
		}
	}
	var res bn254.G1Affine
	med, runs := timeRuns(repeat, func() {
		if _, err := res.MultiExp(points, scalars, ecc.MultiExpConfig{}); err != nil {
			die("MultiExp: %v", err)
		}
	})
	// arkworks' BN254 compressed encoding: x little-endian, bit 7 of the last
	// byte = y is the larger root, bit 6 = point at infinity (gnark's own
	// compressed BN254 encoding is big-endian with other flags).
	var out [fp254.Bytes]byte
	if res.IsInfinity() {
		out[fp254.Bytes-1] = 0x40
	} else {
		xb := res.X.Bytes()
		copy(out[:], reversed(xb[:]))
		if res.Y.LexicographicallyLargest() {
			out[fp254.Bytes-1] |= 0x80
		}
	}
	return hex.EncodeToString(out[:]), med, runs
}

func main() {
	curve := flag.String("curve", "", "bls12-377, bls12-381 or bn254")
	pointsPath := flag.String("points", "", "uncompressed points file (96 bytes each; 64 on bn254)")
	scalarsPath := flag.String("scalars", "", "scalars file (32-byte little-endian each)")
	repeat := flag.Int("repeat", 5, "timed runs after one warm-up")
	group := flag.String("group", "g1", "g1 or g2")
	flag.Parse()
	if *repeat < 1 {
		die("--repeat must be >= 1")
	}
	pts, err := os.ReadFile(*pointsPath)
	if err != nil {
		die("%v", err)
	}
	raw, err := os.ReadFile(*scalarsPath)
	if err != nil {
		die("%v", err)
	}
	sc := scalarsBE(raw)
	size := pointBytes
	if *curve == "bn254" {
		size = pointBytes254
	}
	if *group == "g2" {
		size *= 2
	} else if *group != "g1" {
		die("unknown group %q", *group)
	}
	if len(pts) != size*len(sc) {
		die("%d bytes of points for %d scalars (want %d-byte uncompressed points)", len(pts), len(sc), size)
	}
	var r report
	r.Impl = "gnark-crypto"
	r.Curve = *curve
	r.N = len(sc)
	r.Threads = runtime.GOMAXPROCS(0)
	switch *curve + " " + *group {
	case "bls12-377 g2":
		r.Result, r.MsmMs, r.RunsMs = g2run377(pts, sc, *repeat)
	case "bls12-381 g2":
		r.Result, r.MsmMs, r.RunsMs = g2run381(pts, sc, *repeat)
	case "bn254 g2":
		r.Result, r.MsmMs, r.RunsMs = g2run254(pts, sc, *repeat)
	case "bls12-377 g1":
		r.Result, r.MsmMs, r.RunsMs = run377(pts, sc, *repeat)
	case "bls12-381 g1":
		r.Result, r.MsmMs, r.RunsMs = run381(pts, sc, *repeat)
	case "bn254 g1":
		r.Result, r.MsmMs, r.RunsMs = run254(pts, sc, *repeat)
	default:
		die("unknown curve %q", *curve)
	}
	enc, _ := json.Marshal(r)
	fmt.Println(string(enc))
}
