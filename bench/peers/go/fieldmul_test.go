package main

// Field multiplication timings for docs/BENCHMARKS.md ("Field multiplication"):
//
//	go test -run NONE -bench . -benchtime 2s
//
// Each iteration is one multiplication (or squaring) in a dependent chain
// x <- x*y, the same shape as bench/peers/rust/src/bin/fieldmul.rs.

import (
	"testing"

	fp377 "github.com/consensys/gnark-crypto/ecc/bls12-377/fp"
	fr377 "github.com/consensys/gnark-crypto/ecc/bls12-377/fr"
	fp381 "github.com/consensys/gnark-crypto/ecc/bls12-381/fp"
	fr381 "github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
)

var sink377 fp377.Element
var sink381 fp381.Element
var sinkr377 fr377.Element
var sinkr381 fr381.Element

func BenchmarkFq377Mul(b *testing.B) {
	var x, y fp377.Element
	x.SetUint64(3)
	y.SetString("1234567890123456789012345678901234567890")
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		x.Mul(&x, &y)
	}
	sink377 = x
}

func BenchmarkFq377Square(b *testing.B) {
	var x fp377.Element
	x.SetUint64(3)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		x.Square(&x)
	}
	sink377 = x
}

func BenchmarkFq381Mul(b *testing.B) {
	var x, y fp381.Element
	x.SetUint64(3)
	y.SetString("1234567890123456789012345678901234567890")
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		x.Mul(&x, &y)
	}
	sink381 = x
}

func BenchmarkFq381Square(b *testing.B) {
	var x fp381.Element
	x.SetUint64(3)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		x.Square(&x)
	}
	sink381 = x
}

func BenchmarkFr377Mul(b *testing.B) {
	var x, y fr377.Element
	x.SetUint64(3)
	y.SetString("1234567890123456789012345678901234567890")
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		x.Mul(&x, &y)
	}
	sinkr377 = x
}

func BenchmarkFr381Mul(b *testing.B) {
	var x, y fr381.Element
	x.SetUint64(3)
	y.SetString("1234567890123456789012345678901234567890")
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		x.Mul(&x, &y)
	}
	sinkr381 = x
}
