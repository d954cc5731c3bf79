//! `Tree::outline` on a flat list of 1,000 and 20,000 items: the cost per item must
//! not grow with the list (it did: every item looked at all its siblings).
//!
//! Run: `cargo bench -p taria-benches --bench outline`.

use taria::{Action, Role, Tree, testing::Harness};

fn main() {
    divan::main();
}

/// A list of `items` items that all offer `toggle` (shown once as `children{…}`).
fn list(items: usize) -> Tree {
    let mut harness = Harness::new(40, 10);
    harness.render(|_| {
        let _list = taria::scope(|n| {
            n.role(Role::List).id("items").label("Items");
        });
        for i in 0..items {
            taria::leaf(|n| {
                n.role(Role::ListItem)
                    .key(i)
                    .label(format_args!("item {i}"))
                    .index(i)
                    .count(items)
                    .action(Action::Toggle);
            });
        }
    })
}

#[divan::bench(args = [1_000, 20_000])]
fn outline(bencher: divan::Bencher<'_, '_>, items: usize) {
    let tree = list(items);
    bencher.bench(|| divan::black_box(&tree).outline());
}
