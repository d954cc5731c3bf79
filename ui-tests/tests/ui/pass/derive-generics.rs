//! `#[derive(Semantic)]` on a generic struct with lifetimes, type parameters, a
//! where clause and a const parameter: the impl carries the same bounds.

use std::fmt::Display;

use taria::testing::Harness;
use taria::Semantic as _;

#[derive(taria::Semantic)]
#[taria(role = list_item)]
struct Row<'a, K, V: Display, const N: usize>
where
    K: Display,
{
    #[taria(key)]
    key: K,
    #[taria(label)]
    label: &'a V,
    #[taria(count)]
    count: usize,
    tags: [&'a str; N],
}

fn main() {
    let label = "Buy milk".to_string();
    let row = Row { key: "milk", label: &label, count: 2, tags: ["home"] };
    let tree = Harness::new(10, 1).render(|_| taria::leaf(|n| row.describe(n)));
    assert_eq!(tree.outline(), "- list_item \"Buy milk\" [id=milk] [count=2]\n");
    assert_eq!(row.tags.len(), 1);
}
