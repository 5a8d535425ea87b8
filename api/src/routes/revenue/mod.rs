//! Revenue: the contributions page, source codes, a contact's giving, the selection lists and the imports. The
//! web's `features/revenue` mirrors it.

pub mod contributions;
mod figures;
mod gifts;
pub mod giving;
pub mod imports;
mod range;
pub mod source_codes;
