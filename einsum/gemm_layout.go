package einsum

// BlockMin is the fewest rows (columns) a GEMM block of a step's result
// may have when its row (column) labels are cut into blocks (see
// GemmLayout; a group that is not cut may be of any size): below it, the
// other side would be packed again for too little work per block, and the
// result is computed in a compact buffer and copied instead.
const BlockMin = 32

// GemmLayout is how the reference executor (the CPU engine's) lowers a
// pairwise step with contracted labels to GEMM, per batch item
//
//	C[Left, Right] = Σ_{Con} A[Left, Con] · B[Con, Right],
//
// given the label strides of its left side, right side and target. Left
// and Right hold the step's LeftFree and RightFree labels in the order
// the GEMM reads them. The GEMM's rows are Left[:InnerLeft] and its
// columns Right[:InnerRight], each read as one strided axis; the labels
// Left[InnerLeft:] and Right[InnerRight:] are looped over like batch
// labels, one GEMM per block of the result.
//
// The result is written in place when its groups fuse in the step's
// order. When they do not, each group is ordered by the target's strides
// and cut after its longest fusing prefix; the rest is looped over if each
// looped group keeps at least BlockMin rows (columns) per block and the
// block has a unit-stride direction. Otherwise CompactResult is set: the
// result is computed into a compact buffer in Out order and then copied,
// and Left, Right are the step's own groups. A side is copied into a
// compact buffer (PackLeft, PackRight) when its rows (columns) or its
// contracted labels do not fuse into one stride, or when the matrix has no
// unit-stride direction.
//
// Plan.Peak counts the buffers this layout implies, so the executor and
// the peak model agree by construction. A GemmLayout keeps the scratch of
// its reordered groups: reusing one allocates nothing once warm.
type GemmLayout struct {
	Left, Right           []int
	InnerLeft, InnerRight int
	PackLeft, PackRight   bool
	CompactResult         bool
	// RowStride and ColStride are the target's strides of the GEMM's rows
	// and columns when the result is written in place or in blocks (not
	// CompactResult).
	RowStride, ColStride int

	left, right []int // scratch of the reordered groups
}

// Decide fills g for step s whose left side, right side and target have
// the label strides sa, sb and sc (indexed by label id).
func (g *GemmLayout) Decide(ext []int, s *Step, sa, sb, sc []int) {
	g.Left, g.Right = s.LeftFree, s.RightFree
	g.InnerLeft, g.InnerRight = len(s.LeftFree), len(s.RightFree)
	g.CompactResult = false
	m, crs, ok1 := FuseGroup(ext, s.LeftFree, sc)
	n, ccs, ok2 := FuseGroup(ext, s.RightFree, sc)
	g.RowStride, g.ColStride = crs, ccs
	if !ok1 || !ok2 || !UnitStride(m, n, crs, ccs) {
		g.left = sortByStride(append(g.left[:0], s.LeftFree...), sc)
		g.right = sortByStride(append(g.right[:0], s.RightFree...), sc)
		il, m, crs := fusingPrefix(ext, g.left, sc)
		ir, n, ccs := fusingPrefix(ext, g.right, sc)
		blocks := (il == len(g.left) || m >= BlockMin) && (ir == len(g.right) || n >= BlockMin)
		if blocks && UnitStride(m, n, crs, ccs) {
			g.Left, g.Right, g.InnerLeft, g.InnerRight = g.left, g.right, il, ir
			g.RowStride, g.ColStride = crs, ccs
		} else {
			g.CompactResult = true
		}
	}
	m, ars, ok1 := FuseGroup(ext, g.Left[:g.InnerLeft], sa)
	k, acs, ok2 := FuseGroup(ext, s.Contracted, sa)
	g.PackLeft = !ok1 || !ok2 || !UnitStride(m, k, ars, acs)
	_, brs, ok1 := FuseGroup(ext, s.Contracted, sb)
	n, bcs, ok2 := FuseGroup(ext, g.Right[:g.InnerRight], sb)
	g.PackRight = !ok1 || !ok2 || !UnitStride(s.K, n, brs, bcs)
}

// sortByStride orders labels by the magnitude of their strides ls
// (insertion sort: groups are short, and it allocates nothing).
func sortByStride(labels, ls []int) []int {
	for i := 1; i < len(labels); i++ {
		for j := i; j > 0 && abs(ls[labels[j]]) < abs(ls[labels[j-1]]); j-- {
			labels[j], labels[j-1] = labels[j-1], labels[j]
		}
	}
	return labels
}

// fusingPrefix returns the length of the longest prefix of labels that
// fuses into one stride through ls, with the fused extent and stride.
func fusingPrefix(ext, labels, ls []int) (count, n, stride int) {
	n = 1
	for count < len(labels) {
		x, st, ok := FuseGroup(ext, labels[:count+1], ls)
		if !ok {
			break
		}
		count, n, stride = count+1, x, st
	}
	return count, n, stride
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
