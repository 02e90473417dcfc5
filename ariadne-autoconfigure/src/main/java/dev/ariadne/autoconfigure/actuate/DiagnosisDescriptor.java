package dev.ariadne.autoconfigure.actuate;

import java.util.ArrayList;
import java.util.List;

import dev.ariadne.server.diagnosis.Advice;
import dev.ariadne.server.diagnosis.Diagnosis;
import dev.ariadne.server.diagnosis.Verdict;

import org.springframework.boot.actuate.endpoint.OperationResponseBody;

/**
 * The diagnosis of every listener, as the {@code ariadne} endpoint serves it at
 * {@code /actuator/ariadne/diagnosis}.
 *
 * @param status {@code starved} when any pool is, else {@code ok}
 * @param pools every pool of every listener, the application's listener first
 */
public record DiagnosisDescriptor(String status, List<PoolDiagnosis> pools) implements OperationResponseBody {

	/**
	 * Describes the current verdicts of the given diagnoses.
	 * @param diagnoses the listeners' diagnoses
	 * @return the description
	 */
	static DiagnosisDescriptor of(List<Diagnosis> diagnoses) {
		List<PoolDiagnosis> pools = new ArrayList<>();
		Verdict.Status overall = Verdict.Status.OK;
		for (Diagnosis diagnosis : diagnoses) {
			for (Verdict verdict : diagnosis.verdicts()) {
				// the most severe: the statuses are declared from ok to starved
				if (verdict.status().compareTo(overall) > 0) {
					overall = verdict.status();
				}
				pools.add(PoolDiagnosis.of(verdict));
			}
		}
		return new DiagnosisDescriptor(overall.value(), pools);
	}

	/**
	 * One pool's verdict.
	 *
	 * @param listener the listener's name
	 * @param pool the pool's name
	 * @param status {@code ok}, {@code cpu-saturated} or {@code starved}
	 * @param cause the primary cause ({@code thread-per-connection}, ...) when starved, else
	 * {@code null}
	 * @param evidence the figures that decided the verdict, in a sentence
	 * @param since when the verdict began, ISO-8601
	 * @param advice the changes advised, empty when ok
	 * @param lastStarvation the pool's last starvation that has ended, {@code null} when none has
	 */
	public record PoolDiagnosis(String listener, String pool, String status, String cause, String evidence,
			String since, List<AdviceDescriptor> advice, PastStarvation lastStarvation) {

		static PoolDiagnosis of(Verdict verdict) {
			List<AdviceDescriptor> advice = verdict.advice().stream().map(AdviceDescriptor::of).toList();
			Verdict.Episode last = verdict.last();
			return new PoolDiagnosis(verdict.listener(), verdict.pool(), verdict.status().value(),
					(verdict.cause() != null) ? verdict.cause().value() : null, verdict.evidence(),
					verdict.since().toString(), advice, (last != null) ? new PastStarvation(last.cause().value(),
							last.began().toString(), last.ended().toString()) : null);
		}

	}

	/**
	 * A starvation that has ended.
	 *
	 * @param cause the cause named last
	 * @param began when it began, ISO-8601
	 * @param ended when it ended, ISO-8601
	 */
	public record PastStarvation(String cause, String began, String ended) {
	}

	/**
	 * One change advised.
	 *
	 * @param property what to change
	 * @param value the value to set
	 * @param why what it does, with the figures it was computed from
	 */
	public record AdviceDescriptor(String property, String value, String why) {

		static AdviceDescriptor of(Advice advice) {
			return new AdviceDescriptor(advice.property(), advice.value(), advice.why());
		}

	}

}
