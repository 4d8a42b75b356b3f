use lielow::*;
fn main() {
    let p = Position::from_lfen("r1r1r1r1r1r1r1r1r1/9/r11r1r1r1r1r1r1r1/2R26/9/2B26/b1b1b11b1b1b1b1b1/9/b1b1b1b1b1b1b1b1b1 b").unwrap();
    let k = p.king(Side::Red).unwrap();
    println!(
        "red king {k}, attackers {:?}",
        movegen::attackers(&p, Side::Blue, k)
    );
}
