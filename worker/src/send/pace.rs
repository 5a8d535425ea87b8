//! One mailbox provider's pace within a send. Each provider group keeps its own rate: a deferral (a 4xx, which
//! is how providers throttle) halves that group's rate and leaves every other group alone; a run of accepted
//! messages brings it back toward the client's setting.

use std::sync::Mutex;
use std::time::{Duration, Instant};

/// The rate a group without a limit of its own drops to at its first deferral, before halving further.
const FIRST_SLOWDOWN_PER_SECOND: f64 = 20.0;
/// The slowest a group goes: one message every two seconds.
const SLOWEST_PER_SECOND: f64 = 0.5;
/// Accepted messages in a row after which a slowed group speeds up by a tenth.
const RECOVER_AFTER: u32 = 50;
/// Deferrals closer together than this are one signal: the group halves once, not once for every message that
/// was already on its way when the provider started to push back.
const ONE_SIGNAL: Duration = Duration::from_secs(1);

pub struct Pace {
    /// The client's setting for the group; None for no limit of its own.
    ceiling: Option<f64>,
    state: Mutex<State>,
}

struct State {
    /// The rate now; None while unlimited.
    rate: Option<f64>,
    /// When the group's next message may start.
    next: Instant,
    accepted_in_a_row: u32,
    last_slowdown: Option<Instant>,
}

impl Pace {
    /// `per_second` as the client set it (0: no limit of the group's own).
    pub fn new(per_second: i32) -> Self {
        let ceiling = (per_second > 0).then_some(f64::from(per_second));
        Self {
            ceiling,
            state: Mutex::new(State {
                rate: ceiling,
                next: Instant::now(),
                accepted_in_a_row: 0,
                last_slowdown: None,
            }),
        }
    }

    fn state(&self) -> std::sync::MutexGuard<'_, State> {
        // The state is a few numbers, consistent after any panic: a poisoned lock is still usable.
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Waits for the group's next slot.
    pub async fn slot(&self) {
        let wait = {
            let mut s = self.state();
            let Some(rate) = s.rate else { return };
            let now = Instant::now();
            let at = s.next.max(now);
            s.next = at + Duration::from_secs_f64(1.0 / rate);
            at - now
        };
        if !wait.is_zero() {
            tokio::time::sleep(wait).await;
        }
    }

    /// The provider deferred a message: the group goes at half its rate.
    pub fn deferred(&self) {
        let mut s = self.state();
        s.accepted_in_a_row = 0;
        let now = Instant::now();
        if s.last_slowdown.is_some_and(|at| now - at < ONE_SIGNAL) {
            return;
        }
        s.last_slowdown = Some(now);
        let rate = s.rate.unwrap_or(FIRST_SLOWDOWN_PER_SECOND * 2.0) / 2.0;
        s.rate = Some(rate.max(SLOWEST_PER_SECOND));
    }

    /// The provider accepted a message: a slowed group recovers a tenth of its rate after a run of these.
    pub fn accepted(&self) {
        let mut s = self.state();
        s.accepted_in_a_row += 1;
        if s.accepted_in_a_row < RECOVER_AFTER {
            return;
        }
        s.accepted_in_a_row = 0;
        s.rate = match (s.rate, self.ceiling) {
            (Some(rate), Some(ceiling)) => Some((rate * 1.1).min(ceiling)),
            // A group without a limit of its own is unlimited again once it is back above the first slowdown.
            (Some(rate), None) if rate * 1.1 >= FIRST_SLOWDOWN_PER_SECOND => None,
            (Some(rate), None) => Some(rate * 1.1),
            (None, _) => None,
        };
    }

    /// The rate now (None: unlimited).
    #[cfg(test)]
    fn rate(&self) -> Option<f64> {
        self.state().rate
    }

    /// A deferral as if the last one were long ago.
    #[cfg(test)]
    fn deferred_later(&self) {
        self.state().last_slowdown = None;
        self.deferred();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_deferral_halves_the_group_and_accepted_messages_bring_it_back() {
        let pace = Pace::new(40);
        pace.deferred();
        assert_eq!(pace.rate(), Some(20.0));
        pace.deferred();
        assert_eq!(
            pace.rate(),
            Some(20.0),
            "a burst of deferrals is one signal"
        );
        pace.deferred_later();
        assert_eq!(pace.rate(), Some(10.0));
        for _ in 0..RECOVER_AFTER {
            pace.accepted();
        }
        assert_eq!(pace.rate(), Some(11.0));
        for _ in 0..RECOVER_AFTER * 40 {
            pace.accepted();
        }
        assert_eq!(pace.rate(), Some(40.0), "never above the client's setting");
    }

    #[test]
    fn an_unlimited_group_slows_at_its_first_deferral_and_is_unlimited_again_later() {
        let pace = Pace::new(0);
        assert_eq!(pace.rate(), None);
        pace.deferred();
        assert_eq!(pace.rate(), Some(FIRST_SLOWDOWN_PER_SECOND));
        for _ in 0..50 {
            pace.deferred_later();
        }
        assert_eq!(pace.rate(), Some(SLOWEST_PER_SECOND));
        for _ in 0..RECOVER_AFTER * 60 {
            pace.accepted();
        }
        assert_eq!(pace.rate(), None);
    }

    #[tokio::test]
    async fn slots_are_spaced_by_the_rate() {
        let pace = Pace::new(20);
        let started = Instant::now();
        for _ in 0..5 {
            pace.slot().await;
        }
        // Five slots at 20 a second: the fifth starts 4 × 50 ms after the first.
        assert!(started.elapsed() >= Duration::from_millis(195));
    }
}
