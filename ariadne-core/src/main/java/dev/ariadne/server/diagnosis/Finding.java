package dev.ariadne.server.diagnosis;

import java.util.List;

/**
 * What {@link Rules} concluded from one observation of a starved pool.
 *
 * @param cause the primary cause
 * @param evidence the figures, in a sentence
 * @param advice the changes advised
 */
record Finding(Cause cause, String evidence, List<Advice> advice) {
}
