//! What a run's rows say: the statistics every speed claim goes through ([`stats`]), the
//! summary per dataset x shape x solver ([`summary`]), PAR-2 and the virtual best solver
//! ([`scores`]), and the one table model with its three renderings ([`table`]). Reads
//! [`crate::record`]; knows nothing of how the rows were made.

pub mod scores;
pub mod stats;
pub mod summary;
pub mod table;
