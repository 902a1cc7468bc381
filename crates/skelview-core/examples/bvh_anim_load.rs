//! Loads a BVH file with the `bvh_anim` crate and prints its frame count: the yardstick the
//! whole-process benchmark (`benches/whole_process.sh`) times `skelview info` against.
//! Run: `cargo run --release -p skelview-core --example bvh_anim_load -- FILE.bvh`.

fn main() {
    let Some(path) = std::env::args().nth(1) else {
        eprintln!("usage: bvh_anim_load FILE.bvh");
        std::process::exit(2);
    };
    let file = match std::fs::File::open(&path) {
        Ok(f) => std::io::BufReader::new(f),
        Err(e) => {
            eprintln!("{path}: {e}");
            std::process::exit(2);
        }
    };
    match bvh_anim::from_reader(file) {
        Ok(bvh) => println!("{path}: {} frames, {} joints", bvh.frames().len(), bvh.joints().count()),
        Err(e) => {
            eprintln!("{path}: {e}");
            std::process::exit(2);
        }
    }
}
