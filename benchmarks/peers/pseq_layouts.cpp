// PSEQ's own C++ player (b1f6c1c4/MineSweeperProb, MineSweeperSolver/) on layouts dealt by `sweeplab deal`.
//
// Build against a checkout of that repository (benchmarks/peers/pseq_paired.py does it):
//   g++ -O3 -march=native -std=c++2b -I MineSweeperSolver pseq_layouts.cpp MineSweeperSolver/{BasicDrainer,
//       BasicSolver,BinomialHelper,Drainer,GameMgr,Solver,facade}.cpp -o pseq_layouts
// (not random.cpp: this file defines its two functions, on the same engine, seeded from the command line).
// Run:  pseq_layouts CONFIG SEED [GUESSES] < list-of-mbf-paths   (CONFIG as PSEQ's main takes it, e.g.
//       FL@[1,1]-PSEQ-30-16-T99-SFAR); prints "PATH WON" per file (WON 1 or 0), in input order. With GUESSES, a
//       file, the game is played by GameMgr::Automatic's own loop written out here (SemiAutomatic, then Solve and
//       OpenOptimalBlocks), and before each guess a line goes to GUESSES: "PATH ROWS CELLS", ROWS the position
//       (one character a cell, row-major: H covered, 0-8 a number), CELLS the cells PSEQ chooses among at random
//       (its m_Preferred after P, S, E and Q), as x,y pairs joined by ";".
//       pseq_layouts CONFIG --figures < lines of "ROWS CELLS" (as GUESSES writes them): for each line, PSEQ's P, S,
//       E and Q of each cell named (GameMgr's external game, set up with SetBlockDegree for each open cell, then
//       Solver::Solve; the figures as GameMgr::Solve's LARGEST takes them, Q as the entropy it orders by), one line
//       "x,y P S E Q" a cell, and an empty line after each position.
//
// Each MBF file (u8 width, u8 height, u16 big-endian mine count, then u8 x, u8 y per mine) becomes a game in
// PSEQ's own saved-game format (GameMgr::Save: settled mines, every block's number, nothing open), which
// GameMgr's stream constructor reads back; the first click is the configuration's FL@[i,j] cell, opened with
// GameMgr::OpenBlock, and GameMgr::Automatic plays the rest, as PSEQ's run() does after dealing its own mines.
// PSEQ's random choice among cells left tied (OpenOptimalBlocks) draws from an mt19937_64, as PSEQ's random.cpp
// does, but seeded with SEED rather than from std::random_device, so that a run can be repeated.
#include <cstdint>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "GameMgr.h"
#include "facade.hpp"
#include "random.h"

static std::mt19937_64 engine;

void SeedEngine() { engine.seed(std::random_device{}()); }

int RandomInteger(int maxExclusive) {  // as PSEQ's random.cpp draws it
    std::uniform_int_distribution<int> dist(0, maxExclusive - 1);
    return dist(engine);
}

namespace {

template <typename T> void put(std::ostream &out, const T &value) {
    out.write(reinterpret_cast<const char *>(&value), sizeof(value));
}

void write_guess(std::ostream &out, const std::string &path, GameMgr &mgr, int width, int height) {
    std::string rows(width * height, 'H');
    for (int x = 0; x < width; ++x)
        for (int y = 0; y < height; ++y) {
            const auto &block = mgr.GetBlockProperty(x, y);
            if (block.IsOpen)
                rows[y * width + x] = static_cast<char>('0' + block.Degree);
        }
    out << path << ' ' << rows << ' ';
    const auto &preferred = mgr.GetPreferredBlockList();
    for (size_t k = 0; k < preferred.size(); ++k)
        out << (k ? ";" : "") << preferred[k] / height << ',' << preferred[k] % height;
    out << '\n';
}

bool play(const Configuration &cfg, const std::string &path, std::ostream *guesses) {
    std::ifstream in(path, std::ios::binary);
    std::vector<unsigned char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (bytes.size() < 4)
        throw std::runtime_error(path + ": not an MBF file (shorter than 4 bytes)");
    const int width = bytes[0], height = bytes[1], mines = bytes[2] << 8 | bytes[3];
    if (width != cfg.Width || height != cfg.Height || mines != cfg.TotalMines)
        throw std::runtime_error(path + ": board " + std::to_string(width) + "x" + std::to_string(height) + "/" +
                                 std::to_string(mines) + " is not the configuration's");
    if (bytes.size() != 4 + 2 * static_cast<size_t>(mines))
        throw std::runtime_error(path + ": " + std::to_string(bytes.size()) + " bytes for " + std::to_string(mines) +
                                 " mines");
    std::vector<bool> mine(width * height, false);  // PSEQ's block index: x * height + y
    for (int k = 0; k < mines; ++k) {
        const int x = bytes[4 + 2 * k], y = bytes[5 + 2 * k];
        if (x >= width || y >= height || mine[x * height + y])
            throw std::runtime_error(path + ": mine " + std::to_string(k + 1) + " is off the board or repeated");
        mine[x * height + y] = true;
    }
    std::stringstream saved;
    const bool no = false, yes = true;
    put(saved, no);    // m_IsExternal
    put(saved, no);    // m_AllowWrongGuess
    put(saved, width);
    put(saved, height);
    put(saved, mines);
    put(saved, cfg.IsSNR);
    put(saved, yes);   // m_Settled
    put(saved, yes);   // m_Started
    const int to_open = width * height - mines, wrong = 0, last = -1;
    put(saved, to_open);
    put(saved, wrong);
    put(saved, last);
    for (int x = 0; x < width; ++x)
        for (int y = 0; y < height; ++y) {
            int degree = 0;
            for (int dx = -1; dx <= 1; ++dx)
                for (int dy = -1; dy <= 1; ++dy)
                    if ((dx || dy) && x + dx >= 0 && x + dx < width && y + dy >= 0 && y + dy < height)
                        degree += mine[(x + dx) * height + y + dy];
            const bool is_mine = mine[x * height + y];
            put(saved, degree);
            put(saved, no);  // IsOpen
            put(saved, is_mine);
        }
    saved.seekg(0);
    GameMgr mgr(saved, cfg);
    if (!cfg.InitialPositionSpecified)
        throw std::runtime_error("the configuration must name its first click (FL@[i,j]-...)");
    const int first = cfg.Index;
    if (mine[first])
        throw std::runtime_error(path + ": the first click's cell holds a mine");
    mgr.OpenBlock(first / height, first % height);
    if (guesses == nullptr) {
        mgr.Automatic();
        return mgr.GetSucceed();
    }
    if (cfg.Logic != LogicMethod::Full || cfg.ExhaustEnabled)
        throw std::runtime_error("GUESSES is written for full logic without the exhaustive search (FL-PSEQ-...)");
    const auto depth = SolvingState::Reduce | SolvingState::Overlap | SolvingState::Probability;
    while (mgr.GetStarted()) {  // GameMgr::Automatic(true), full logic, mines settled
        mgr.SemiAutomatic(depth);
        mgr.Solve(depth | SolvingState::Heuristic | SolvingState::Drained, true);  // AutomaticStep
        if (mgr.GetStarted() && mgr.GetBestBlockList().empty())
            write_guess(*guesses, path, mgr, width, height);
        mgr.OpenOptimalBlocks();
    }
    return mgr.GetSucceed();
}

BlockSet neighbours(int x, int y, int width, int height) {  // GameMgr::GenerateBlocksR's order
    BlockSet around;
    for (int dx = -1; dx <= 1; ++dx)
        for (int dy = -1; dy <= 1; ++dy)
            if ((dx || dy) && x + dx >= 0 && x + dx < width && y + dy >= 0 && y + dy < height)
                around.push_back((x + dx) * height + y + dy);
    return around;
}

void figures(const Configuration &cfg, const std::string &line) {
    std::stringstream in(line);
    std::string rows, cells;
    in >> rows >> cells;
    const int width = cfg.Width, height = cfg.Height;
    if (rows.size() != static_cast<size_t>(width * height))
        throw std::runtime_error("--figures: a position of " + std::to_string(rows.size()) + " cells");
    GameMgr mgr(width, height, cfg.TotalMines, cfg);
    for (int y = 0; y < height; ++y)
        for (int x = 0; x < width; ++x)
            if (rows[y * width + x] != 'H')
                mgr.SetBlockDegree(x, y, rows[y * width + x] - '0');
    auto &solver = mgr.GetSolver();
    solver.Solve(SolvingState::Reduce | SolvingState::Overlap | SolvingState::Probability, false);
    std::stringstream list(cells);
    std::string xy;
    while (std::getline(list, xy, ';')) {
        const int x = std::stoi(xy.substr(0, xy.find(','))), y = std::stoi(xy.substr(xy.find(',') + 1));
        const int block = x * height + y;
        const auto around = neighbours(x, y, width, height);
        const double p = solver.GetProbability(block);
        // Q as QuantityCondQ works it out: -sum r log2 r over r = m_Result[j] / m_TotalStates, where m_Result is
        // already a distribution; so Q * T - log2 T, T = m_TotalStates, is the entropy the figure orders by.
        const double q = solver.QuantityCondQ(around, block);
        int lowest;
        const double total = solver.GetDistInfo(around, block, lowest).m_TotalStates;
        char text[240];
        std::snprintf(text, sizeof text, "%d,%d %.17g %.17g %.17g %.17g\n", x, y, p,
                      solver.ZerosCondQ(around, block) * (1 - p), solver.ZerosECondQ(around, block) * (1 - p),
                      q * total - std::log2(total));
        std::cout << text;
    }
    std::cout << '\n';
}

}  // namespace

int main(int argc, char **argv) {
    if (argc != 3 && argc != 4) {
        std::cerr << "usage: pseq_layouts CONFIG SEED [GUESSES] < paths, or pseq_layouts CONFIG --figures < positions\n";
        return 2;
    }
    std::ofstream guesses;
    if (argc == 4) {
        guesses.open(argv[3]);
        if (!guesses) {
            std::cerr << "pseq_layouts: GUESSES " << argv[3] << ": cannot be written\n";
            return 2;
        }
    }
    Configuration cfg;
    try {
        cfg = parse(argv[1]);
    } catch (std::exception &e) {
        std::cerr << "pseq_layouts: CONFIG " << argv[1] << ": " << e.what() << "\n";
        return 2;
    }
    cache(cfg);
    if (std::string(argv[2]) == "--figures") {
        std::string line;
        try {
            while (std::getline(std::cin, line))
                if (!line.empty())
                    figures(cfg, line);
        } catch (std::exception &e) {
            std::cerr << "pseq_layouts: " << e.what() << "\n";
            return 2;
        }
        return 0;
    }
    engine.seed(std::stoull(argv[2]));
    std::string path;
    while (std::getline(std::cin, path)) {
        if (path.empty())
            continue;
        try {
            std::cout << path << ' ' << (play(cfg, path, argc == 4 ? &guesses : nullptr) ? 1 : 0) << '\n';
        } catch (std::exception &e) {
            std::cerr << "pseq_layouts: " << e.what() << "\n";
            return 2;
        }
    }
    return 0;
}
