package dev.ariadne.it.websocket;

import jakarta.websocket.OnMessage;
import jakarta.websocket.Session;
import jakarta.websocket.server.PathParam;
import jakarta.websocket.server.ServerEndpoint;

/**
 * A Jakarta WebSocket endpoint, exported by Spring's {@code ServerEndpointExporter}: answers in
 * its room, and to {@code count} with the sessions open in it.
 */
@ServerEndpoint("/chat/{room}")
public class ChatEndpoint {

	/**
	 * Answers a message.
	 * @param message the message
	 * @param room the room, from the path
	 * @param session the session
	 * @return the answer
	 */
	@OnMessage
	public String message(String message, @PathParam("room") String room, Session session) {
		if (message.equals("count")) {
			long inRoom = session.getOpenSessions()
				.stream()
				.filter((other) -> room.equals(other.getPathParameters().get("room")))
				.count();
			return room + ":" + inRoom;
		}
		return room + ":" + message;
	}

}
