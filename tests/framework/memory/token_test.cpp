// Tokens: many readers or one writer, FIFO order, no starvation, and an error (not a
// deadlock) when a thread would wait on its own hold.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <mutex>
#include <thread>
#include <vector>

#include <funcmesh/memory/memory.hpp>
#include <funcmesh/memory/memory_error.hpp>

namespace funcmesh::testing {

using namespace std::chrono_literals;

namespace {
// Waits (bounded) until `b` has `n` queued requests; a test bug must not hang ctest.
void wait_for_queue(const buffer& b, std::size_t n) {
  const auto deadline = std::chrono::steady_clock::now() + 20s;
  while (b.waiting_requests() < n) {
    ASSERT_LT(std::chrono::steady_clock::now(), deadline) << "requests never queued";
    std::this_thread::sleep_for(1ms);
  }
}
}  // namespace

TEST(token, many_readers_hold_a_buffer_together) {
  buffer b(64);
  token t1, t2, t3;
  const void* p1 = b.read_pointer(host_space, t1);
  const void* p2 = b.read_pointer(host_space, t2);
  const void* p3 = b.read_pointer(host_space, t3);
  EXPECT_EQ(p1, p2);
  EXPECT_EQ(p2, p3);
  EXPECT_EQ(t1.held_buffers(), 1u);
}

TEST(token, readers_in_other_threads_run_concurrently) {
  buffer b(64);
  std::atomic<int> inside{0};
  std::atomic<int> most{0};
  std::vector<std::thread> threads;
  for (int i = 0; i < 4; ++i)
    threads.emplace_back([&] {
      token t;
      b.read_pointer(host_space, t);
      const int now = ++inside;
      int seen = most.load();
      while (now > seen && !most.compare_exchange_weak(seen, now)) {
      }
      // Stay until every reader is in (bounded, in case the lock serialized us).
      const auto deadline = std::chrono::steady_clock::now() + 5s;
      while (inside.load() < 4 && std::chrono::steady_clock::now() < deadline)
        std::this_thread::sleep_for(1ms);
    });
  for (auto& t : threads) t.join();
  EXPECT_EQ(most.load(), 4);
}

TEST(token, a_writer_excludes_everyone_else) {
  buffer b(2 * sizeof(long));
  {
    token t;
    auto* p = static_cast<long*>(b.write_pointer(host_space, t));
    p[0] = p[1] = 0;
  }
  constexpr int threads_count = 4;
  constexpr int rounds = 2000;
  std::atomic<bool> torn{false};
  std::vector<std::thread> threads;
  for (int i = 0; i < threads_count; ++i)
    threads.emplace_back([&, i] {
      for (int r = 0; r < rounds; ++r) {
        token t;
        if ((r + i) % 3 == 0) {
          const auto* p = static_cast<const long*>(b.read_pointer(host_space, t));
          if (p[0] != p[1]) torn = true;
        } else {
          auto* p = static_cast<long*>(b.write_pointer(host_space, t));
          const long value = p[0];  // a non-atomic read-modify-write: safe only if exclusive
          std::this_thread::yield();
          p[0] = value + 1;
          p[1] = value + 1;
        }
      }
    });
  for (auto& t : threads) t.join();
  long expected = 0;
  for (int i = 0; i < threads_count; ++i)
    for (int r = 0; r < rounds; ++r) expected += (r + i) % 3 != 0;
  token t;
  const auto* p = static_cast<const long*>(b.read_pointer(host_space, t));
  EXPECT_EQ(p[0], expected);
  EXPECT_EQ(p[1], expected);
  EXPECT_FALSE(torn.load());
}

TEST(token, requests_are_granted_in_arrival_order) {
  // A reader holds; a writer queues; a later reader must queue behind the writer (FIFO),
  // although it is compatible with the current reader: the writer is never starved.
  buffer b(sizeof(int));
  std::mutex order_mutex;
  std::vector<char> order;
  auto record = [&](char who) {
    std::lock_guard guard(order_mutex);
    order.push_back(who);
  };

  token first;
  b.read_pointer(host_space, first);
  std::thread writer([&] {
    token t;
    b.write_pointer(host_space, t);
    record('W');
    std::this_thread::sleep_for(20ms);  // a late reader that jumped the queue would show
  });
  wait_for_queue(b, 1);
  std::thread reader([&] {
    token t;
    b.read_pointer(host_space, t);
    record('R');
  });
  wait_for_queue(b, 2);
  record('0');
  first.release();
  writer.join();
  reader.join();
  EXPECT_EQ(order, (std::vector<char>{'0', 'W', 'R'}));
}

TEST(token, a_stream_of_readers_does_not_starve_a_writer) {
  buffer b(sizeof(int));
  std::atomic<bool> writer_done{false};
  std::atomic<bool> stop{false};
  std::vector<std::thread> readers;
  for (int i = 0; i < 3; ++i)
    readers.emplace_back([&] {
      while (!stop) {
        token t;
        b.read_pointer(host_space, t);
        std::this_thread::sleep_for(100us);
      }
    });
  std::this_thread::sleep_for(5ms);
  std::thread writer([&] {
    token t;
    b.write_pointer(host_space, t);
    writer_done = true;
  });
  const auto deadline = std::chrono::steady_clock::now() + 10s;
  while (!writer_done && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(1ms);
  EXPECT_TRUE(writer_done.load()) << "the writer waited 10 s behind readers";
  stop = true;
  writer.join();
  for (auto& r : readers) r.join();
}

TEST(token, a_second_token_reading_while_this_thread_writes_throws_instead_of_deadlocking) {
  buffer b(16);
  token writer;
  b.write_pointer(host_space, writer);
  token reader;
  EXPECT_THROW(b.read_pointer(host_space, reader), token_error);
  EXPECT_EQ(reader.held_buffers(), 0u);
  EXPECT_EQ(b.waiting_requests(), 0u);  // the refused request left no trace
  writer.release();
  EXPECT_NO_THROW(b.read_pointer(host_space, reader));
}

TEST(token, a_second_token_writing_while_this_thread_reads_throws) {
  buffer b(16);
  token reader;
  b.read_pointer(host_space, reader);
  token writer;
  EXPECT_THROW(b.write_pointer(host_space, writer), token_error);
  EXPECT_THROW(b.set_size(32), token_error);  // set_size needs a write hold too
}

TEST(token, the_same_token_may_read_then_write_and_write_then_read) {
  buffer b(sizeof(int));
  token t;
  b.read_pointer(host_space, t);
  auto* p = static_cast<int*>(b.write_pointer(host_space, t));  // sole reader: upgrades
  *p = 5;
  EXPECT_EQ(*static_cast<const int*>(b.read_pointer(host_space, t)), 5);
  b.set_size(2 * sizeof(int), preserve::yes, t);
  EXPECT_EQ(t.held_buffers(), 1u);
}

TEST(token, an_upgrade_waits_for_readers_of_other_threads) {
  buffer b(sizeof(int));
  std::atomic<bool> other_reading{false};
  std::atomic<bool> other_released{false};
  std::thread other([&] {
    token t;
    b.read_pointer(host_space, t);
    other_reading = true;
    std::this_thread::sleep_for(30ms);
    other_released = true;
    t.release();
  });
  while (!other_reading) std::this_thread::yield();
  token mine;
  b.read_pointer(host_space, mine);
  b.write_pointer(host_space, mine);  // must wait until the other reader has left
  EXPECT_TRUE(other_released.load());
  other.join();
}

TEST(token, release_and_destruction_end_the_hold) {
  buffer b(16);
  {
    token t;
    b.write_pointer(host_space, t);
  }
  token t2;
  EXPECT_NO_THROW(b.write_pointer(host_space, t2));
  t2.release();
  EXPECT_EQ(t2.held_buffers(), 0u);
  token t3;
  EXPECT_NO_THROW(b.write_pointer(host_space, t3));
}

TEST(token, a_moved_token_keeps_its_holds) {
  buffer b(16);
  token t;
  b.write_pointer(host_space, t);
  token moved = std::move(t);
  EXPECT_EQ(moved.held_buffers(), 1u);
  EXPECT_EQ(t.held_buffers(), 0u);  // NOLINT(bugprone-use-after-move): specified empty
  EXPECT_NO_THROW(b.write_pointer(host_space, moved));  // still the holder
  moved.release();
  token other;
  EXPECT_NO_THROW(b.write_pointer(host_space, other));
}

TEST(token, one_token_holds_many_buffers) {
  buffer a(8), b(8), c(8);
  token t;
  a.read_pointer(host_space, t);
  b.write_pointer(host_space, t);
  c.read_pointer(host_space, t);
  EXPECT_EQ(t.held_buffers(), 3u);
  t.release();
  token w;
  EXPECT_NO_THROW(b.write_pointer(host_space, w));
}

}  // namespace funcmesh::testing
