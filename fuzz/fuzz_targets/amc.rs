#![no_main]
//! Fuzz target: arbitrary bytes as an AMC motion for a fixed, valid ASF skeleton (run:
//! cargo +nightly fuzz run amc).

#[path = "common.rs"]
mod common;

/// A small skeleton with a root and two bones, every dof kind used.
const ASF: &[u8] = b":version 1.10\n:name fuzz\n:units\n  mass 1.0\n  length 1.0\n  angle deg\n:root\n  order TX TY TZ RX RY RZ\n  axis XYZ\n  position 0 0 0\n  orientation 0 0 0\n:bonedata\n  begin\n    id 1\n    name femur\n    direction 0 -1 0\n    length 5\n    axis 0 0 0 XYZ\n    dof rx ry rz\n    limits (-160 20)\n    (-70 70)\n    (-60 70)\n  end\n  begin\n    id 2\n    name tibia\n    direction 0 -1 0\n    length 5\n    axis 0 0 0 XYZ\n    dof rx l\n    limits (-10 170)\n    (-1 1)\n  end\n:hierarchy\n  begin\n    root femur\n    femur tibia\n  end\n";

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    common::load_and_pose(&skelview_core::formats::acclaim::Acclaim, vec![("fuzz.asf", ASF), ("x.amc", data)]);
});
