package main

// Field inversion timings for bench/field/run.py (docs/BENCHMARKS.md, "Field
// multiplication" section, `inverse` rows):
//
//	go test -run NONE -bench . -benchtime 2000x
//
// BenchmarkXxxInverse: one inversion per iteration in a dependent chain
// x <- 1/x + 1, the same shape as bench/field/rust/src/bin/fieldinv.rs.
// BenchmarkXxxInverseIndep: one inversion per iteration over 1024 fixed
// pseudo-random elements in turn (independent inputs).

import (
	"math/big"
	"testing"

	fp377 "github.com/consensys/gnark-crypto/ecc/bls12-377/fp"
	fr377 "github.com/consensys/gnark-crypto/ecc/bls12-377/fr"
	fp381 "github.com/consensys/gnark-crypto/ecc/bls12-381/fp"
	fr381 "github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
)

const indep = 1024

// splitmix64, seeded like the Rust runner; the values are reduced by
// SetBigInt here, so they differ from the Rust inputs but are as random.
func randomBigs(n int, words int) []*big.Int {
	s := uint64(7)
	out := make([]*big.Int, n)
	for i := range out {
		v := new(big.Int)
		for j := 0; j < words; j++ {
			s += 0x9e3779b97f4a7c15
			z := s
			z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
			z = (z ^ (z >> 27)) * 0x94d049bb133111eb
			z ^= z >> 31
			v.Lsh(v, 64)
			v.Or(v, new(big.Int).SetUint64(z))
		}
		out[i] = v
	}
	return out
}

var sink377 fp377.Element
var sink381 fp381.Element
var sinkr377 fr377.Element
var sinkr381 fr381.Element

func BenchmarkFq377Inverse(b *testing.B) {
	var x, one fp377.Element
	x.SetUint64(3)
	one.SetOne()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		x.Inverse(&x)
		x.Add(&x, &one)
	}
	sink377 = x
}

func BenchmarkFq377InverseIndep(b *testing.B) {
	v := make([]fp377.Element, indep)
	for i, z := range randomBigs(indep, 6) {
		v[i].SetBigInt(z)
	}
	var acc, t fp377.Element
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		t.Inverse(&v[i%indep])
		acc.Add(&acc, &t)
	}
	sink377 = acc
}

func BenchmarkFq381Inverse(b *testing.B) {
	var x, one fp381.Element
	x.SetUint64(3)
	one.SetOne()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		x.Inverse(&x)
		x.Add(&x, &one)
	}
	sink381 = x
}

func BenchmarkFq381InverseIndep(b *testing.B) {
	v := make([]fp381.Element, indep)
	for i, z := range randomBigs(indep, 6) {
		v[i].SetBigInt(z)
	}
	var acc, t fp381.Element
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		t.Inverse(&v[i%indep])
		acc.Add(&acc, &t)
	}
	sink381 = acc
}

func BenchmarkFr377Inverse(b *testing.B) {
	var x, one fr377.Element
	x.SetUint64(3)
	one.SetOne()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		x.Inverse(&x)
		x.Add(&x, &one)
	}
	sinkr377 = x
}

func BenchmarkFr377InverseIndep(b *testing.B) {
	v := make([]fr377.Element, indep)
	for i, z := range randomBigs(indep, 4) {
		v[i].SetBigInt(z)
	}
	var acc, t fr377.Element
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		t.Inverse(&v[i%indep])
		acc.Add(&acc, &t)
	}
	sinkr377 = acc
}

func BenchmarkFr381Inverse(b *testing.B) {
	var x, one fr381.Element
	x.SetUint64(3)
	one.SetOne()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		x.Inverse(&x)
		x.Add(&x, &one)
	}
	sinkr381 = x
}

func BenchmarkFr381InverseIndep(b *testing.B) {
	v := make([]fr381.Element, indep)
	for i, z := range randomBigs(indep, 4) {
		v[i].SetBigInt(z)
	}
	var acc, t fr381.Element
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		t.Inverse(&v[i%indep])
		acc.Add(&acc, &t)
	}
	sinkr381 = acc
}
