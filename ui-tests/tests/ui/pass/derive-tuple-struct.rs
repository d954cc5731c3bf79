//! `#[derive(Semantic)]` on a tuple struct: field attributes go on positional fields.

use taria::testing::Harness;
use taria::Semantic as _;

#[derive(taria::Semantic)]
#[taria(role = checkbox)]
struct Task(#[taria(key)] u64, #[taria(label)] String, #[taria(checked)] bool);

#[derive(taria::Semantic)]
#[taria(role = separator)]
struct Rule;

fn main() {
    let task = Task(42, "Buy milk".into(), true);
    let tree = Harness::new(10, 1).render(|_| {
        taria::leaf(|n| task.describe(n));
        taria::leaf(|n| Rule.describe(n.key("rule")));
    });
    assert_eq!(tree.outline(), "- checkbox \"Buy milk\" [id=42] [checked]\n- separator [id=rule]\n");
}
