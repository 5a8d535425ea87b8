//! Where a contact and a message stand: the words the `contacts.subscription` and `mailing_recipients.status`
//! columns allow (their check constraints list the same words).

use crate::stored_name::stored_name;

stored_name! {
    /// Whether a contact gets mail: only `Subscribed` contacts are sent to. An unsubscribe or a hard bounce moves
    /// a subscribed contact out, and nothing moves one back but a person.
    pub enum SubscriptionStatus / UnknownSubscriptionStatus {
        Subscribed = "subscribed",
        Unsubscribed = "unsubscribed",
        Bounced = "bounced",
    }
}

stored_name! {
    /// One recipient's message in a send: `Queued` until the mail server answers, then `Sent`, `Bounced` (refused
    /// for good) or `Failed` (never sent: unsubscribed or bounced before its turn). `Queued` again after a
    /// deferral.
    pub enum DeliveryStatus / UnknownDeliveryStatus {
        Queued = "queued",
        Sending = "sending",
        Sent = "sent",
        Failed = "failed",
        Bounced = "bounced",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_stored_words_read_back_and_others_are_refused() {
        let words: Vec<_> = SubscriptionStatus::ALL.iter().map(|s| s.as_str()).collect();
        assert_eq!(words, ["subscribed", "unsubscribed", "bounced"]);
        let words: Vec<_> = DeliveryStatus::ALL.iter().map(|s| s.to_string()).collect();
        assert_eq!(words, ["queued", "sending", "sent", "failed", "bounced"]);
        for s in SubscriptionStatus::ALL {
            assert_eq!(SubscriptionStatus::parse(s.as_str()), Some(*s));
        }
        for s in DeliveryStatus::ALL {
            assert_eq!(DeliveryStatus::try_from(s.to_string()), Ok(*s));
        }
        assert_eq!(SubscriptionStatus::parse("Subscribed"), None);
        assert_eq!(
            DeliveryStatus::try_from("delivered".to_owned()),
            Err(UnknownDeliveryStatus("delivered".to_owned()))
        );
    }
}
