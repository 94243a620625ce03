import ContractKit
import Foundation
import Testing
@testable import ContractModel
@testable import MockBackend

/// The proxy streams bodies: its buffer limit no longer bounds what passes through, and the journal keeps only the start.
@Suite struct StreamingProxyTests {
    private func withProxy<T>(streams: Bool, padding: Int, _ body: (MockServer) async throws -> T) async throws -> T {
        try await withServer(responder: EchoResponder(padding: padding)) { _, upstream in
            let proxy = try FaultProxy(target: upstream.baseURL, maxBodyBytes: 1024, streams: streams)
            return try await withServer(responder: proxy) { server, _ in try await body(server) }
        }
    }

    @Test func bodiesLargerThanTheBufferLimitStreamThroughBothWays() async throws {
        let upload = String(repeating: "u", count: 200_000)
        try await withProxy(streams: true, padding: 300_000) { server in
            let port = try #require(server.address?.port)
            let connection = try await RawConnection.connect(port: port)
            defer { connection.close() }
            try await connection.send(rawRequest("POST", "/api/v1/announcements/x/photos", body: upload))
            let read = await connection.readResponse()
            #expect(read.status == 201)
            let echo = try JSONValue(parsing: Data(read.body ?? []))
            #expect(echo["bodyBytes"]?.intValue == upload.utf8.count)
            #expect(echo["checksum"]?.stringValue == Checksum.fnv1a(Array(upload.utf8)))
            #expect((read.body?.count ?? 0) > 300_000)
            let entry = try #require(server.journal.entries().last)
            #expect(entry.requestBody?.size == upload.utf8.count)
            #expect(entry.requestBody?.bytes.count == CapturedBody.defaultLimit)
            #expect(entry.responseBody?.size == read.body?.count)
            // The same connection carries the next exchange.
            // Further exchanges on the same connection (the target connection is kept for them) get their own answers.
            for size in [0, 10, 70_000] {
                try await connection.send(rawRequest("POST", "/api/v1/announcements", body: String(repeating: "b", count: size)))
                let next = await connection.readResponse()
                #expect(next.status == 201)
                #expect(try JSONValue(parsing: Data(next.body ?? []))["bodyBytes"]?.intValue == size)
            }
            try await connection.send(rawRequest("GET", "/api/v1/announcements/x"))
            #expect(await connection.readResponse().status == 200)
            #expect(server.journal.entries().count == 5)
        }
    }

    @Test func theBufferingPathStillRefusesWhatItCannotHold() async throws {
        try await withProxy(streams: false, padding: 0) { server in
            let port = try #require(server.address?.port)
            let connection = try await RawConnection.connect(port: port)
            defer { connection.close() }
            try await connection.send(rawRequest("POST", "/api/v1/announcements/x/photos", body: String(repeating: "u", count: 4096)))
            #expect(await connection.readResponse().status == 413)
        }
    }
}
