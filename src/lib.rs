pub mod policy;
pub mod random;
