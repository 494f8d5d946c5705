//! Which prepared forms persist in prepared files ([`crate::prepared`]), and
//! how: each backend names the layout of its prepared points, writes their
//! records, and maps them back from a checked file.

use super::format::{mapped_records, Header, Layout, Persist};
use super::refusal::PreparedRefusal;
use crate::backend::lanes::lane_curve::{LaneCurve, LaneSet};
use crate::backend::{BatchAffineBackend, BatchAffinePoints, TwistedEdwardsBackend, XyzzBackend};
use crate::input::InputCurve;
use crate::scheduler::Scheduler;
use crate::store::{bytes_of, Mapping, Record, Store};
use std::io;
use zkmsm_curve::te::TePrecomputed;
use zkmsm_curve::{Affine, Bls12_377};
use zkmsm_field::{Fp, Fp2, Fp2Config, FpConfig};

type Sink<'a> = &'a mut dyn FnMut(&[u8]) -> io::Result<()>;

// SAFETY: an Fp is its N limbs and nothing else (no padding); any limbs are a
// value, and `valid` also insists on the canonical (below q) Montgomery form.
unsafe impl<P: FpConfig<N>, const N: usize> Record for Fp<P, N> {
    fn write_record(&self, out: &mut [u8]) {
        // SAFETY: no padding (the limbs only).
        out.copy_from_slice(unsafe { bytes_of(self) });
    }
    fn valid(bytes: &[u8]) -> bool {
        let limbs: [u64; N] = core::array::from_fn(|i| u64::from_ne_bytes(bytes[8 * i..8 * i + 8].try_into().unwrap()));
        !zkmsm_field::limbs::geq(&limbs, &P::MODULUS)
    }
}

// SAFETY: an Fp2 is its two coefficients (no padding), each an Fp record.
unsafe impl<P: Fp2Config> Record for Fp2<P>
where
    P::Base: Record,
{
    fn write_record(&self, out: &mut [u8]) {
        let h = out.len() / 2;
        self.c0.write_record(&mut out[..h]);
        self.c1.write_record(&mut out[h..]);
    }
    fn valid(bytes: &[u8]) -> bool {
        let h = bytes.len() / 2;
        P::Base::valid(&bytes[..h]) && P::Base::valid(&bytes[h..])
    }
}

// SAFETY: written field by field at the fields' offsets in this build (the
// padding as zeros); valid as `valid` says (the flag byte 0 or 1, the
// coordinates valid field elements).
unsafe impl<C: InputCurve> Record for Affine<C>
where
    C::Base: Record,
{
    fn write_record(&self, out: &mut [u8]) {
        let f = core::mem::size_of::<C::Base>();
        out.fill(0);
        let (ox, oy, oi) = offsets::<C>();
        self.x.write_record(&mut out[ox..ox + f]);
        self.y.write_record(&mut out[oy..oy + f]);
        out[oi] = self.infinity as u8;
    }
    /// The flag 0 with both coordinates below q, or the point at infinity
    /// exactly as [`Affine::identity`] is written (zero coordinates).
    fn valid(bytes: &[u8]) -> bool {
        let f = core::mem::size_of::<C::Base>();
        let (ox, oy, oi) = offsets::<C>();
        let (x, y) = (&bytes[ox..ox + f], &bytes[oy..oy + f]);
        match bytes[oi] {
            0 => C::Base::valid(x) && C::Base::valid(y),
            1 => x.iter().chain(y).all(|&b| b == 0),
            _ => false,
        }
    }
}

fn offsets<C: InputCurve>() -> (usize, usize, usize) {
    (
        core::mem::offset_of!(Affine<C>, x),
        core::mem::offset_of!(Affine<C>, y),
        core::mem::offset_of!(Affine<C>, infinity),
    )
}

// SAFETY: three field elements (no padding between 48-byte limb arrays).
unsafe impl Record for TePrecomputed {
    fn write_record(&self, out: &mut [u8]) {
        let f = core::mem::size_of::<zkmsm_field::Bls12_377Fq>();
        for (k, v) in [self.y_minus_x, self.y_plus_x, self.kxy].iter().enumerate() {
            let o = match k {
                0 => core::mem::offset_of!(TePrecomputed, y_minus_x),
                1 => core::mem::offset_of!(TePrecomputed, y_plus_x),
                _ => core::mem::offset_of!(TePrecomputed, kxy),
            };
            v.write_record(&mut out[o..o + f]);
        }
    }
    fn valid(bytes: &[u8]) -> bool {
        let f = core::mem::size_of::<zkmsm_field::Bls12_377Fq>();
        bytes.chunks_exact(f).all(zkmsm_field::Bls12_377Fq::valid)
    }
}

/// Affine points with coordinates as Montgomery limbs: what the XYZZ and
/// the portable batch-affine backends keep.
const AFFINE: &str = "affine-mont64";
const TE: &str = "te-precomputed-mont64";

fn refuse_layout(header: &Header, backend: &'static str) -> PreparedRefusal {
    PreparedRefusal::LayoutNotRun { layout: header.layout.clone(), backend }
}

impl<C: InputCurve> Persist<C> for XyzzBackend
where
    Affine<C>: Record,
{
    fn layout(prepared: &Store<Affine<C>>) -> Layout {
        Layout::of(AFFINE, prepared)
    }
    fn write_records(prepared: &Store<Affine<C>>, sink: Sink) -> io::Result<()> {
        prepared.write_records(sink)
    }
    fn map(&self, header: &Header, map: Mapping, offset: usize) -> Result<Store<Affine<C>>, PreparedRefusal> {
        if header.layout != AFFINE {
            return Err(refuse_layout(header, "xyzz"));
        }
        mapped_records(header, map, offset)
    }
}

impl Persist<Bls12_377> for TwistedEdwardsBackend {
    fn layout(prepared: &Store<TePrecomputed>) -> Layout {
        Layout::of(TE, prepared)
    }
    fn write_records(prepared: &Store<TePrecomputed>, sink: Sink) -> io::Result<()> {
        prepared.write_records(sink)
    }
    fn map(&self, header: &Header, map: Mapping, offset: usize) -> Result<Store<TePrecomputed>, PreparedRefusal> {
        if header.layout != TE {
            return Err(refuse_layout(header, "twisted-edwards"));
        }
        mapped_records(header, map, offset)
    }
}

impl<C: InputCurve, S: Scheduler> Persist<C> for BatchAffineBackend<S>
where
    Affine<C>: Record,
{
    fn layout(prepared: &BatchAffinePoints<C>) -> Layout {
        match prepared {
            BatchAffinePoints::Scalar(p) => Layout::of(AFFINE, p),
            #[cfg(target_arch = "x86_64")]
            BatchAffinePoints::Ifma(p) => Layout::of(crate::backend::lanes::ifma::LAYOUT, p.points()),
            #[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
            BatchAffinePoints::Fma(p) => Layout::of(crate::backend::lanes::FMA_LAYOUT, p.points()),
        }
    }
    fn write_records(prepared: &BatchAffinePoints<C>, sink: Sink) -> io::Result<()> {
        match prepared {
            BatchAffinePoints::Scalar(p) => p.write_records(sink),
            #[cfg(target_arch = "x86_64")]
            BatchAffinePoints::Ifma(p) => p.points().write_records(sink),
            #[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
            BatchAffinePoints::Fma(p) => p.points().write_records(sink),
        }
    }
    /// Any layout this CPU runs, whichever the backend would choose now (a
    /// file prepared portably runs portably on an IFMA machine).
    fn map(&self, header: &Header, map: Mapping, offset: usize) -> Result<BatchAffinePoints<C>, PreparedRefusal> {
        let out_of_radix = || PreparedRefusal::NotCanonical { layout: header.layout.clone() };
        match header.layout.as_str() {
            AFFINE => Ok(BatchAffinePoints::Scalar(mapped_records(header, map, offset)?)),
            #[cfg(target_arch = "x86_64")]
            crate::backend::lanes::ifma::LAYOUT => {
                use crate::backend::lanes::ifma::ops::Ifma;
                if !crate::backend::lanes::ifma::ops::Avx512::available() {
                    return Err(PreparedRefusal::CpuLacks { layout: header.layout.clone(), feature: "AVX-512 IFMA" });
                }
                let points = mapped_records(header, map, offset)?;
                <C as LaneCurve>::Ifma::from_store(points, crate::backend::lanes::ifma::RADIX)
                    .map(BatchAffinePoints::Ifma)
                    .ok_or_else(out_of_radix)
            }
            #[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
            crate::backend::lanes::FMA_LAYOUT => {
                use crate::backend::lanes::{simd::Simd, NativeSimd};
                if !NativeSimd::available() {
                    return Err(PreparedRefusal::CpuLacks { layout: header.layout.clone(), feature: NativeSimd::NAME });
                }
                let points = mapped_records(header, map, offset)?;
                <C as LaneCurve>::Fma::from_store(points, crate::backend::lanes::FMA_RADIX)
                    .map(BatchAffinePoints::Fma)
                    .ok_or_else(out_of_radix)
            }
            _ => Err(refuse_layout(header, "batch-affine")),
        }
    }
}
