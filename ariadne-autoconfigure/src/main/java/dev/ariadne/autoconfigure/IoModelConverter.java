package dev.ariadne.autoconfigure;

import dev.ariadne.server.IoModel;

import org.springframework.core.convert.converter.Converter;

/**
 * Converts {@code ariadne.server.io-model} values with {@link IoModel#fromValue(String)}, so
 * that an unknown value fails naming the allowed ones ({@code blocking}, {@code event-loop},
 * {@code virtual-threads}) rather than the enum's constants.
 */
final class IoModelConverter implements Converter<String, IoModel> {

	@Override
	public IoModel convert(String source) {
		return IoModel.fromValue(source);
	}

}
