//! Text forms of the types whose values are a fixed list of names.

/// Implements `Display` for `$ty` as its `name()`; given `$unknown`, a tuple struct of the
/// unrecognised text, also `FromStr` by exact match against the names of `$ty::ALL`.
#[macro_export]
macro_rules! text_by_name {
    ($ty:ty) => {
        impl ::std::fmt::Display for $ty {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                f.write_str(self.name())
            }
        }
    };
    ($ty:ty, $unknown:ident) => {
        $crate::text_by_name!($ty);

        impl ::std::str::FromStr for $ty {
            type Err = $unknown;
            fn from_str(s: &str) -> ::std::result::Result<Self, Self::Err> {
                <$ty>::ALL
                    .iter()
                    .copied()
                    .find(|v| v.name() == s)
                    .ok_or_else(|| $unknown(s.to_string()))
            }
        }
    };
}
