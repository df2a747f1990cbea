//! Every analysis, defined once. Each is one [`Analysis`] value in its own
//! module (`sweep::ANALYSIS`, `map::ANALYSIS`, ...), carrying its word (the
//! command line's `--word`), its own options and help, its refusal of a
//! world it does not fit, the seeds and the work budget it runs on, and what
//! it prints. The command line's options, usage and dispatch are read off
//! [`crate::ANALYSES`]; adding an analysis is its own file and a line there.

use retry_core::words::Text;
use retry_sim::config::Config;
use retry_sim::metrics::Metric;

/// One analysis of a world: many runs of it, or one run read another way.
#[derive(Debug, Clone, Copy)]
pub struct Analysis {
    /// Its word, in English the command line's `--word`; its messages in
    /// the terminal start with it in the reader's language.
    pub word: Text,
    /// Its own options after its word, with whether each takes a value,
    /// and how the usage line writes them (" [--csv] [--threads N]").
    pub options: &'static [(&'static str, bool)],
    pub synopsis: &'static str,
    /// What it prints, for the usage.
    pub help: Text,
    /// Seeds each world it measures is run on (1: the link's own).
    pub seeds: u64,
    /// The work all its runs share (the simulator's events), if they share
    /// one; else each run keeps its own bound.
    pub budget: Option<u64>,
    /// Why it does not run a world, if it does not: a link costs a
    /// terminal no more than it costs a browser tab.
    pub refusal: fn(&Config) -> Option<&'static str>,
    /// Runs it on a world and writes what the command line prints.
    pub print: fn(&Config, &Args) -> Result<Printed, String>,
}

impl Analysis {
    /// Its option on the command line, `--sweep`.
    pub fn flag(&self) -> String {
        format!("--{}", self.word.english())
    }
}

/// What the command line was given besides the link, as an analysis reads
/// it.
#[derive(Debug, Clone, Copy)]
pub struct Args<'a> {
    pub words: &'a [String],
    /// The numbers a link's lesson is about, the first the one it rests on,
    /// and those its "try this" buttons move: the teaching above decides
    /// them (an analysis sees no lesson), the seeds measure them.
    pub lesson: fn(&Config) -> (&'static [Metric], Vec<Metric>),
}

impl Args<'_> {
    pub fn flag(&self, name: &str) -> bool {
        self.words.iter().any(|w| w == name)
    }

    /// The word after option `name`.
    pub fn value(&self, name: &str) -> Option<&str> {
        let at = self.words.iter().position(|w| w == name)?;
        self.words.get(at + 1).map(String::as_str)
    }
}

/// What an analysis prints: its output, and the lines it says on standard
/// error first (a budget spent, a run cut).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Printed {
    pub out: String,
    pub said: Vec<String>,
}

impl Printed {
    /// `out`, ending in a new line.
    pub fn out(mut out: String) -> Printed {
        if !out.ends_with('\n') {
            out.push('\n');
        }
        Printed {
            out,
            said: Vec::new(),
        }
    }

    pub fn saying(mut self, line: Option<String>) -> Printed {
        self.said.extend(line);
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ANALYSES;

    /// Words and options are unique across the list, so a flag names one
    /// analysis and the usage one line per analysis.
    #[test]
    fn each_word_and_option_names_one_analysis() {
        let mut flags: Vec<String> = ANALYSES.iter().map(Analysis::flag).collect();
        flags.sort();
        flags.dedup();
        assert_eq!(flags.len(), ANALYSES.len());
        for analysis in ANALYSES {
            for (option, _) in analysis.options {
                assert!(option.starts_with("--"), "{option}");
                assert!(
                    analysis.synopsis.contains(option),
                    "{}: {option} is not in its synopsis",
                    analysis.word.english()
                );
                assert!(!flags.iter().any(|f| f == option), "{option}");
            }
        }
    }
}
