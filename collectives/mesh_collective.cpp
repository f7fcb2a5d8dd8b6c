#include "collectives/mesh_collective.hpp"

#include <algorithm>

#include "noc/random.hpp"
#include "noc/topology/kary_ncube.hpp"

namespace collnoc {

unsigned message_words(const FirmwareParams& p) {
  if (p.message_bytes == 0 || p.message_bytes % 4 != 0)
    throw ParamError("workload.message_bytes", std::to_string(p.message_bytes),
                     "a positive multiple of 4 bytes");
  return static_cast<unsigned>(p.message_bytes / 4);
}

Words broadcast_data(const FirmwareParams& p) {
  return pattern_message(p.seed, p.root, p.root, 0, message_words(p));
}

// ---------------------------------------------------------------- the mesh tree

unsigned MeshTree::lead(unsigned r) const {
  const unsigned per_tile = c_.cores_per_tile();
  return r / per_tile == root_ / per_tile ? root_ : r - r % per_tile;
}

std::vector<unsigned> MeshTree::mates(unsigned r) const {
  std::vector<unsigned> out;
  const unsigned first = r - r % c_.cores_per_tile();
  for (unsigned m = first; m < first + c_.cores_per_tile(); ++m)
    if (m != r) out.push_back(m);
  return out;
}

int MeshTree::parent(unsigned r) const {
  const int x = static_cast<int>(c_.x(r)), y = static_cast<int>(c_.y(r));
  if (y != cy_) return static_cast<int>(lead(c_.rank_at(x, y < cy_ ? y + 1 : y - 1)));
  if (x != cx_) return static_cast<int>(lead(c_.rank_at(x < cx_ ? x + 1 : x - 1, y)));
  return -1;
}

std::vector<unsigned> MeshTree::children(unsigned r) const {
  const int x = static_cast<int>(c_.x(r)), y = static_cast<int>(c_.y(r));
  std::vector<unsigned> out;
  const auto add = [&](int cx, int cy) {
    if (c_.inside(cx, cy)) out.push_back(lead(c_.rank_at(cx, cy)));
  };
  if (y == cy_) {
    if (x <= cx_) add(x - 1, y);
    if (x >= cx_) add(x + 1, y);
    add(x, y - 1);
    add(x, y + 1);
  } else {
    add(x, y < cy_ ? y - 1 : y + 1);
  }
  return out;
}

// ---------------------------------------------------------------- MeshCollective

MeshCollective::MeshCollective(const FirmwareParams& p, GridCommunicator comm)
    : CollectiveFirmware(p, comm.size()), comm_(comm), n_(comm.size()) {
  if (p.root >= n_)
    throw ParamError("workload.root", std::to_string(p.root),
                     "a rank of the grid: 0.." + std::to_string(n_ - 1));
}

void MeshCollective::report_more(Report& out) const {
  out.set("collective.grid", std::to_string(comm_.width()) + "x" + std::to_string(comm_.height()));
  out.set("collective.bytes_moved", bytes_moved_);
}

void MeshCollective::scatter(MessageLayer& ml, const MeshTree& tree, unsigned me, Words& data) {
  ml.mark_round(2);  // down the tree
  if (tree.lead(me) != me) {
    data = recv(ml, tree.lead(me));
    return;
  }
  if (tree.parent(me) >= 0) data = recv(ml, static_cast<unsigned>(tree.parent(me)));
  for (unsigned child : tree.children(me)) send(ml, child, data);
  for (unsigned mate : tree.mates(me)) send(ml, mate, data);
}

void MeshCollective::tree_barrier(MessageLayer& ml, unsigned me) {
  const MeshTree tree(comm_, comm_.rank_at((comm_.width() - 1) / 2, (comm_.height() - 1) / 2));
  Words count{1};
  gather(ml, tree, me, count, [](Words& acc, const Words& in) { acc[0] += in.at(0); });
  scatter(ml, tree, me, count);
  check(count, Words{n_}, "barrier release at rank " + std::to_string(me));
}

void MeshCollective::sn_route_broadcast(MessageLayer& ml, unsigned me, unsigned root) {
  if (sn_routed_[me]) return;  // the route stays for the next repetitions
  sn_routed_[me] = true;
  const KaryNCube& mesh = comm_.mesh();
  const int x = static_cast<int>(comm_.x(me)), y = static_cast<int>(comm_.y(me));
  const int rx = static_cast<int>(comm_.x(root)), ry = static_cast<int>(comm_.y(root));
  std::uint64_t outputs = 0;
  const auto out_to = [&](int dim, int step) {  // onward link if it stays inside the grid
    if (comm_.inside(dim == 0 ? x + step : x, dim == 1 ? y + step : y))
      outputs |= std::uint64_t{1} << mesh.port_toward(dim, step);
  };
  unsigned input = mesh.local_port_of(comm_.core(me));
  if (me == root) {
    for (int dim : {0, 1})
      for (int step : {1, -1}) out_to(dim, step);
  } else {
    // Take the stream from the neighbour toward the root (Y in its column, X elsewhere).
    const int dim = x == rx ? 1 : 0;
    const int step = dim == 1 ? (y > ry ? 1 : -1) : (x > rx ? 1 : -1);  // away from root
    const unsigned from = comm_.rank_at(dim == 0 ? x - step : x, dim == 1 ? y - step : y);
    const unsigned toward_me = mesh.port_toward(dim, step);
    input = mesh.peer(comm_.router(from), toward_me).port;
    out_to(dim, step);
    if (dim == 1) {
      out_to(0, 1);
      out_to(0, -1);
    }
    outputs |= std::uint64_t{1} << mesh.local_port_of(comm_.core(me));
  }
  ml.sn_configure(input, outputs);
}

void MeshCollective::sn_broadcast(MessageLayer& ml, unsigned me, unsigned root, Words& data,
                                  const CopyBuffers& copies) {
  ml.mark_round(2);  // down, on the static network
  const CopyBuffersScope scope(ml, copies);
  if (me == root) {
    bytes_moved_ += 4ull * data.size();
    ml.sn_send(data);
  } else {
    data = ml.sn_recv(data.size());
  }
}

// ---------------------------------------------------------------- the reduction base

ReductionCollective::ReductionCollective(const FirmwareParams& p, const Topology& t)
    : MeshCollective(p, t), red_(p), want_(red_.expected(p.seed, n_, 0)) {
  copies_ = CopyBuffers::user(4ull * red_.words());
}

Words ReductionCollective::reduce_to_root(MessageLayer& ml, const MeshTree& tree, unsigned me) {
  return p_.schedule == "chain" ? tree_reduce(ml, tree, me) : distance_reduce(ml, tree, me);
}

Words ReductionCollective::tree_reduce(MessageLayer& ml, const MeshTree& tree, unsigned me) {
  Words acc = mine(me);
  gather(ml, tree, me, acc, [this, &ml](Words& a, const Words& in) { fold(ml, a, in); });
  return acc;
}

Words ReductionCollective::distance_reduce(MessageLayer& ml, const MeshTree& tree, unsigned me) {
  Words acc = mine(me);
  ml.mark_round(1);  // up the tree
  if (tree.lead(me) != me) {
    send(ml, tree.lead(me), acc);
    return acc;
  }
  for (unsigned mate : tree.mates(me)) fold(ml, acc, recv(ml, mate));
  const bool later_run = runs_[me]++ > 0;
  const unsigned x = comm_.x(me), y = comm_.y(me), rx = comm_.x(p_.root), ry = comm_.y(p_.root);
  // Step 1: along Y into the root's row.
  if (y != ry) {
    send_in_turn(ml, tree.lead(comm_.rank_at(x, ry)), y, ry, comm_.height(), acc, later_run);
    return acc;
  }
  receive_farthest_first(ml, [&](unsigned pos) { return tree.lead(comm_.rank_at(x, pos)); }, ry,
                         comm_.height(), acc, later_run);
  // Step 2: along X into the root.
  if (x != rx) {
    send_in_turn(ml, p_.root, x, rx, comm_.width(), acc, later_run);
    return acc;
  }
  receive_farthest_first(ml, [&](unsigned pos) { return tree.lead(comm_.rank_at(pos, y)); }, rx,
                         comm_.width(), acc, later_run);
  return acc;
}

template <typename At>
void ReductionCollective::receive_farthest_first(MessageLayer& ml, At at, unsigned centre,
                                                 unsigned n, Words& acc, bool later_run) {
  const Words go{1};
  const unsigned reach[2] = {n - 1 - centre, centre};  // senders above / below the centre
  const auto rank = [&](unsigned side, unsigned distance) {
    return at(side == 0 ? centre + distance : centre - distance);
  };
  // A later run's farthest senders wait for the previous run's last message of their side.
  for (unsigned side = 0; side < 2; ++side)
    if (later_run && reach[side] > 0) send_control(ml, rank(side, reach[side]), go);
  for (unsigned round = 0; round < std::max(reach[0], reach[1]); ++round) {
    Words in[2];
    for (unsigned side = 0; side < 2; ++side) {
      if (round >= reach[side]) continue;
      const unsigned distance = reach[side] - round;
      in[side] = recv(ml, rank(side, distance));
      if (distance > 1) send_control(ml, rank(side, distance - 1), go);
    }
    for (unsigned side = 0; side < 2; ++side)
      if (round < reach[side]) fold(ml, acc, in[side]);
  }
}

void ReductionCollective::send_in_turn(MessageLayer& ml, unsigned to, unsigned pos,
                                       unsigned centre, unsigned n, const Words& acc,
                                       bool later_run) {
  const unsigned reach = pos > centre ? n - 1 - centre : centre;
  const unsigned distance = pos > centre ? pos - centre : centre - pos;
  if (distance < reach || later_run) recv_control(ml, to);  // the go
  send(ml, to, acc);
}

void ReductionCollective::report_more(Report& out) const {
  MeshCollective::report_more(out);
  out.set("collective.reduce_op", p_.reduce_op);
  out.set("collective.element_type", p_.element_type);
}

// ---------------------------------------------------------------- the alltoall base

unsigned alltoall_message_words(const FirmwareParams& p, unsigned n, unsigned src, unsigned dst,
                                bool varying) {
  const unsigned words = message_words(p);
  return varying ? 1 + static_cast<unsigned>(hash64(p.seed ^ 0xa11a11, src * n + dst) % (2 * words)) : words;
}

namespace {

// The messages between `rank` and every other rank, in rank order: from it or to it.
std::vector<std::uint64_t> alltoall_sizes(const FirmwareParams& p, unsigned n, unsigned rank,
                                          bool from, bool varying) {
  std::vector<std::uint64_t> sizes;
  for (unsigned other = 0; other < n; ++other)
    if (other != rank)
      sizes.push_back(from ? alltoall_message_words(p, n, rank, other, varying)
                           : alltoall_message_words(p, n, other, rank, varying));
  return sizes;
}

}  // namespace

std::vector<std::uint64_t> alltoall_sizes_from(const FirmwareParams& p, unsigned n, unsigned src,
                                               bool varying) {
  return alltoall_sizes(p, n, src, true, varying);
}

std::vector<std::uint64_t> alltoall_sizes_to(const FirmwareParams& p, unsigned n, unsigned dst,
                                             bool varying) {
  return alltoall_sizes(p, n, dst, false, varying);
}

Words AlltoallBase::message(unsigned src, unsigned dst) const {
  return pattern_message(p_.seed, src, dst, 0, alltoall_message_words(p_, n_, src, dst, varying_));
}

}  // namespace collnoc
