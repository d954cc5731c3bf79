//! Checking: the names in a parsed [`ast`](crate::ast) against the vocabulary (roles,
//! actions, custom names, ids, keys). Every error is reported, with its span.

use syn::{Ident, LitStr};

use crate::ast::{ActionArg, ActionItem, IdArg, NodeArgs, PropValue, RoleArg};
use crate::attr::key_example;
use crate::errors::Ordered;
use crate::vocabulary::{
    ACTIONS, KEY_GRAMMAR, KeyProblem, MODIFIERS, NAMED_KEYS, ROLES, check_custom_action, check_key,
    did_you_mean, is_valid_id, is_valid_name,
};

/// Checks every property of `args`; errors go to `errors` at their place.
pub(crate) fn node_args(args: &NodeArgs, errors: &mut Ordered) {
    for prop in &args.props {
        let at = prop.at;
        let result = match &prop.value {
            PropValue::Role(role_arg) => role(role_arg),
            PropValue::Id(IdArg::Lit(lit)) => id(lit),
            PropValue::Actions(items) => {
                for item in items {
                    action_item(item, &mut |place, e| errors.push((at, item.at, place), e));
                }
                Ok(())
            }
            PropValue::Id(IdArg::Expr(_))
            | PropValue::Text(_)
            | PropValue::Flag(_)
            | PropValue::Expr(_)
            | PropValue::Scroll(_) => Ok(()),
        };
        if let Err(error) = result {
            errors.push((at, 0, 1), error);
        }
    }
}

/// A core role name, or a custom role's name and base.
pub(crate) fn role(role: &RoleArg) -> syn::Result<()> {
    match role {
        RoleArg::Core(ident) => core_role(ident, None),
        RoleArg::Custom { name, base } => {
            if !is_valid_name(&name.value()) {
                return Err(syn::Error::new(
                    name.span(),
                    "a custom role name is snake_case: lowercase letters, digits and `_`",
                ));
            }
            if ROLES.contains(&name.value().as_str()) {
                return Err(syn::Error::new(
                    name.span(),
                    format!(
                        "`{}` is a core role: write `role = {}`",
                        name.value(),
                        name.value()
                    ),
                ));
            }
            core_role(base, Some(name))
        }
    }
}

/// `ident` names a core role; `custom_name` is set when it is the base of
/// `custom(custom_name, base)`.
fn core_role(ident: &Ident, custom_name: Option<&LitStr>) -> syn::Result<()> {
    let name = ident.to_string();
    if ROLES.contains(&name.as_str()) {
        return Ok(());
    }
    let hint = did_you_mean(&name, ROLES);
    let message = match custom_name {
        Some(custom) => format!(
            "unknown base role `{name}`{hint}; the base of a custom role is the core role that consumers \
             who don't know `{}` treat the node as, e.g. `custom(\"{}\", list_item)`",
            custom.value(),
            custom.value()
        ),
        None => format!(
            "unknown role `{name}`{hint}; for an app-specific role write `role = custom(\"{name}\", <base role>)`"
        ),
    };
    Err(syn::Error::new(ident.span(), message))
}

fn id(lit: &LitStr) -> syn::Result<()> {
    if lit.value().is_empty() {
        return Err(syn::Error::new(
            lit.span(),
            "an id can't be empty: name the node, e.g. `id = \"save\"`, or leave `id` out to get an id derived from its parent",
        ));
    }
    if !is_valid_id(&lit.value()) {
        return Err(syn::Error::new(
            lit.span(),
            format!(
                "`{}` is not a valid id: use ASCII letters, digits, `-`, `_`, `.` or `:` (no spaces; `/` is reserved for derived ids)",
                lit.value()
            ),
        ));
    }
    Ok(())
}

/// The action's name (before the key fallback's parse error, place 0) and the key
/// (after it, place 2).
fn action_item(item: &ActionItem, push: &mut dyn FnMut(u8, syn::Error)) {
    let name = match &item.action {
        ActionArg::Core(ident) => {
            let name = ident.to_string();
            if !ACTIONS.contains(&name.as_str()) {
                push(
                    0,
                    syn::Error::new(
                        ident.span(),
                        format!(
                            "unknown action `{name}`{}; core actions are: {}; for an app-specific action write it as a string, e.g. \"{name}\"",
                            did_you_mean(&name, ACTIONS),
                            ACTIONS.join(", ")
                        ),
                    ),
                );
                return;
            }
            name
        }
        ActionArg::Custom(lit) => match check_custom_action(lit) {
            Ok(_) => lit.value(),
            Err(error) => return push(0, error),
        },
    };
    let Some(key) = &item.key else {
        return;
    };
    let written = key.value();
    let chords = match crate::attr::cycle_keys(&written) {
        Some((next, previous)) => vec![next.to_owned(), previous.to_owned()],
        None => vec![written.clone()],
    };
    for chord in chords {
        check_chord(&name, key, &chord, push);
    }
}

/// Reports `chord`, a key fallback `key` of action `name` declares, if it is not a key.
fn check_chord(name: &str, key: &syn::LitStr, chord: &str, push: &mut dyn FnMut(u8, syn::Error)) {
    if chord.trim().is_empty() {
        push(
            2,
            syn::Error::new(
                key.span(),
                format!(
                    "the key can't be empty: name the key the app takes for `{name}`, e.g. {}",
                    key_example(name)
                ),
            ),
        );
    } else if let Err(problem) = check_key(chord) {
        let what = match problem {
            KeyProblem::NoKey => format!("`{chord}` names no key after its last `+`"),
            KeyProblem::Modifier(part) => format!(
                "`{part}` in `{chord}` is not a modifier{}",
                did_you_mean(&part, MODIFIERS)
            ),
            KeyProblem::Key(part) => {
                format!("`{part}` is not a key{}", did_you_mean(&part, NAMED_KEYS))
            }
        };
        push(
            2,
            syn::Error::new(key.span(), format!("{what}: {KEY_GRAMMAR}")),
        );
    }
}
